// npm run mirror against real hosts (the Node server, nginx, the Worker in workerd), over the hash tree's format 2: a
// first run copies every body served by URL and every piece, a run from build A to build B fetches only the shards
// and bodies whose hash changed and the pieces the copy lacks, and ends byte-identical to a fresh copy of B. The copy
// is a runs build: `npm run serve -- --dist COPY` answers as the origin, `npm run export` turns it into the origin's
// page tree. A tampered body or piece is refused with the previous copy kept, a killed run resumes, and a copy of the
// earlier version (a file per target) is replaced.
import { spawn } from "node:child_process";
import { cp, mkdir, readdir, readFile, readlink, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { startServer } from "../../../scripts/hosts/node/server/start-server.ts";
import { makeStaticCopy } from "../../../scripts/hosts/static/static-copy.ts";
import { updateMirror } from "../../../scripts/mirror/update-mirror.ts";
import { builtSite } from "../../helpers/build/built-site.ts";
import { hosts } from "../../helpers/conformance/hosts.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";
import { askPipelined } from "../../helpers/hosts/pipelined.ts";
import { seeded } from "../../helpers/random/seeded.ts";

type Row = [id: string, items: number, size: number];
type Entry = { sha256: string; size: number; pieces?: Row[]; parts?: ({ text: string } | { pieces: Row[] })[] };
type Listing = Record<string, Entry>;
const listing = async (path: string) => (JSON.parse(await readFile(path, "utf8")) as { data: Listing }).data;

/** A built tree's shards, bodies served by URL, lists and pieces, read from its files. */
async function treeOf(dist: string) {
  const shards = await listing(join(dist, "v1/sync/index.json"));
  const bodies: Listing = {};
  const lists: Listing = {};
  const pieces = new Set<string>();
  for (const name of Object.keys(shards))
    for (const [target, entry] of Object.entries(await listing(join(dist, `v1/sync/${name}.json`)))) {
      (entry.pieces ? lists : bodies)[target] = entry;
      for (const [id] of entry.pieces ?? []) pieces.add(id);
      for (const part of entry.parts ?? []) if ("pieces" in part) for (const [id] of part.pieces) pieces.add(id);
    }
  return { shards, bodies, lists, pieces };
}
const changed = (a: Listing, b: Listing) => Object.keys(b).filter((k) => a[k]?.sha256 !== b[k]!.sha256).length;
/** Bodies a mirror fetches by URL: every one but those made of parts (joined from pieces). */
const fetchedBodies = (b: Listing) => Object.values(b).filter((e) => !e.parts).length;

const site = builtSite({ copyContent: true, prefix: "msapi-mirror-" });
let distA: string;
let distB: string;
let runsB: string;

beforeAll(async () => {
  const { content } = site;
  distA = site.dist;
  // B: one price changed, and one tool inserted
  const file = join(content, "tools/beta-mail.json");
  const tool = JSON.parse(await readFile(file, "utf8"));
  tool.pricingPlans[0].price = 27;
  await writeFile(file, JSON.stringify(tool));
  await writeFile(
    join(content, "tools/omega-mail.json"),
    JSON.stringify({ ...tool, name: "Omega Mail", slug: "omega-mail" }),
  );
  distB = join(site.dir, "b");
  await build({ contentDir: content, outDir: distB });
  runsB = join(site.dir, "b-runs");
  await build({ contentDir: content, outDir: runsB, layout: "runs" });
}, 120_000);

const selected = ["node", "nginx", "cloudflare-assets"].map((name) => hosts.find((h) => h.name === name)!);

describe.each(selected)("npm run mirror against $name", (host) => {
  const why = host.unavailable();
  it.skipIf(why !== undefined && process.env.CI !== "true")(
    "copies A whole, then updates it to B fetching only what changed, ending byte-identical to a fresh copy of B",
    async () => {
      const out = join(site.dir, `copy-${host.name}`);
      const a = await host.start(distA);
      const treeA = await treeOf(distA);
      try {
        const first = await updateMirror(`${a.origin}/v1`, out);
        expect(first).toMatchObject({
          changed: true,
          targets: Object.keys(treeA.bodies).length,
          lists: Object.keys(treeA.lists).length,
          bodiesFetched: fetchedBodies(treeA.bodies),
          piecesFetched: treeA.pieces.size,
          shardsFetched: Object.keys(treeA.shards).length,
        });
        // every body is the file the build wrote for it, at its path; the catalog body joined from its parts
        for (const file of ["v1/software/beta-mail.json", "v1/export/catalog.json", "runs/all.run", "runs/all.offsets"])
          expect((await readFile(join(out, file))).equals(await readFile(join(distA, file))), file).toBe(true);
        expect((await updateMirror(`${a.origin}/v1`, out)).changed).toBe(false);
      } finally {
        await a.stop();
      }
      const b = await host.start(distB);
      try {
        const treeB = await treeOf(distB);
        const update = await updateMirror(`${b.origin}/v1`, out);
        expect(update.bodiesFetched).toBe(changed(treeA.bodies, treeB.bodies) - 1); // the catalog body: its parts
        expect(update.shardsFetched).toBe(changed(treeA.shards, treeB.shards));
        expect(update.piecesFetched).toBe([...treeB.pieces].filter((id) => !treeA.pieces.has(id)).length);
        expect(update.bodiesFetched).toBeGreaterThan(0);
        expect(update.bodiesFetched).toBeLessThan(fetchedBodies(treeB.bodies));
        const fresh = join(site.dir, `fresh-${host.name}`);
        await updateMirror(`${b.origin}/v1`, fresh);
        expect(await hashTree(out)).toEqual(await hashTree(fresh));
      } finally {
        await b.stop();
      }
    },
    120_000,
  );
});

describe("npm run mirror's copy is a runs build", () => {
  let copy: string;
  beforeAll(async () => {
    const server = await startServer({ distDir: distB, port: 0, host: "127.0.0.1" });
    copy = join(site.dir, "copy-served");
    try {
      await updateMirror(`${server.url.replace(/\/$/, "")}/v1`, copy);
    } finally {
      await server.close();
    }
  });

  it("npm run serve -- --dist COPY answers every page and body as the origin, headers included", async () => {
    const origin = await startServer({ distDir: distB, port: 0, host: "127.0.0.1" });
    const served = await startServer({ distDir: copy, port: 0, host: "127.0.0.1" });
    try {
      const tree = await treeOf(distB);
      const targets = [
        ...Object.keys(tree.bodies),
        ...Object.keys(tree.shards).map((name) => `/v1/sync/${name}.json`),
        ...[...tree.pieces].map((id) => `/v1/sync/pieces/${id}.json`),
        "/v1/sync/index.json",
        "/v1/search?q=zzzz",
        "/v1/software/nope",
        "/v1/software?offset=99",
        "/v1/software?category=email&offset=99",
        "/v1/software?limit=0",
      ];
      for (const [target, list] of Object.entries(tree.lists))
        for (let limit = 1; limit <= 100; limit++)
          for (let offset = 0; offset <= list.pieces!.reduce((n, p) => n + p[1], 0); offset++)
            targets.push(`${target}${target.includes("?") ? "&" : "?"}limit=${limit}&offset=${offset}`);
      const requests = targets.flatMap((target) => [
        { target },
        { target, method: "HEAD" },
        { target, headers: { "accept-encoding": "gzip, br" } },
      ]);
      const [want, got] = await Promise.all([askPipelined(origin.url, requests), askPipelined(served.url, requests)]);
      for (const [i, r] of requests.entries()) {
        expect(got[i]!.status, r.target).toBe(want[i]!.status);
        expect(got[i]!.headers, r.target).toEqual(want[i]!.headers);
        expect(got[i]!.body.equals(want[i]!.body), r.target).toBe(true);
      }
    } finally {
      await origin.close();
      await served.close();
    }
  }, 120_000);

  it("npm run export turns it into the origin's page tree (the docs page and llms.txt aside: the hash tree names neither)", async () => {
    const fromCopy = await makeStaticCopy(copy, join(site.dir, "export-copy"), "static");
    const fromOrigin = await makeStaticCopy(distB, join(site.dir, "export-origin"), "static");
    const origin = await hashTree(fromOrigin.out);
    for (const file of [...origin.keys()])
      if (["404.html", "index.html", "llms.txt"].includes(file) || file.startsWith("docs/")) origin.delete(file);
    expect(await hashTree(fromCopy.out)).toEqual(origin);
  });

  it("holds the files of the runs build of the same catalog (the docs page and host configs aside), no name a system refuses", async () => {
    const files = await fg("**", { cwd: copy, onlyFiles: true });
    expect(files.filter((f) => /[<>:"\\|?*%]/.test(f))).toEqual([]);
    const built = await hashTree(await realpath(runsB));
    const held = await hashTree(copy);
    for (const [file, hash] of held)
      if (!["routes.json", "build-index.json", "schema-map.json", ".mirror.json"].includes(file))
        expect(built.get(file), file).toBe(hash);
    for (const file of await fg(["v1/**/*.json", "errors/**", "runs/**"], { cwd: await realpath(runsB) }))
      if (!file.endsWith(".br") && !file.endsWith(".gz")) expect(held.has(file), file).toBe(true);
  });
});

describe("npm run mirror refuses and resumes", () => {
  it("refuses a body whose hash is not the tree's, and keeps the previous copy as it was", async () => {
    const out = join(site.dir, "copy-tampered");
    const a = await startServer({ distDir: distA, port: 0, host: "127.0.0.1" });
    await updateMirror(`${a.url.replace(/\/$/, "")}/v1`, out);
    await a.close();
    const before = await hashTree(out);
    const link = await readlink(out);
    // B as a plain folder with one body changed after the build, to the size the build wrote (the server answers a
    // body of another size 503, as one it cannot read whole)
    const tampered = join(site.dir, "tampered");
    await cp(await realpath(distB), tampered, { recursive: true });
    const body = join(tampered, "v1/software/beta-mail.json");
    await writeFile(body, '{"data":{"tampered":true}}'.padEnd((await stat(body)).size));
    const b = await startServer({ distDir: tampered, port: 0, host: "127.0.0.1" });
    try {
      await expect(updateMirror(`${b.url.replace(/\/$/, "")}/v1`, out)).rejects.toThrow(
        /not the one the hash tree lists/,
      );
    } finally {
      await b.close();
    }
    expect(await readlink(out)).toBe(link);
    expect(await hashTree(out)).toEqual(before);
  });

  it("refuses a piece whose hash is not its name, keeping the previous copy", async () => {
    const out = join(site.dir, "copy-bad-piece");
    const a = await startServer({ distDir: distA, port: 0, host: "127.0.0.1" });
    await updateMirror(`${a.url.replace(/\/$/, "")}/v1`, out);
    await a.close();
    const before = await hashTree(out);
    const tampered = join(site.dir, "tampered-piece");
    await cp(await realpath(distB), tampered, { recursive: true });
    const treeA = await treeOf(distA);
    const newPiece = [...(await treeOf(distB)).pieces].find((id) => !treeA.pieces.has(id))!;
    const file = join(tampered, `v1/sync/pieces/${newPiece}.json`);
    const bytes = await readFile(file);
    bytes[bytes.length - 2] = bytes[bytes.length - 2] === 0x7d ? 0x7d : 0x20; // same size, other bytes
    await writeFile(file, Buffer.concat([Buffer.from("[ "), bytes.subarray(2)]));
    const b = await startServer({ distDir: tampered, port: 0, host: "127.0.0.1" });
    try {
      await expect(updateMirror(`${b.url.replace(/\/$/, "")}/v1`, out)).rejects.toThrow(
        /not the one the hash tree lists/,
      );
    } finally {
      await b.close();
    }
    expect(await hashTree(out)).toEqual(before);
  });

  it("a run killed at seeded moments leaves no copy or the previous one, and the next run completes it without refetching", async () => {
    const server = await startServer({ distDir: distA, port: 0, host: "127.0.0.1" });
    const from = `${server.url.replace(/\/$/, "")}/v1`;
    const out = join(site.dir, "copy-killed");
    const random = seeded(20261125);
    const tree = await treeOf(distA);
    const total = fetchedBodies(tree.bodies) + tree.pieces.size;
    try {
      for (let kill = 0; kill < 3; kill++) {
        // Killed once the staging folder holds this many files (spread over the run).
        const at = Math.floor(total * (0.1 + 0.6 * random()));
        const child = spawn(
          process.execPath,
          [
            "scripts/launcher/launch.cjs",
            "scripts/commands/mirror.ts",
            "--from",
            from,
            "--out",
            out,
            "--concurrency",
            "1",
          ],
          { cwd: repoRoot, stdio: "ignore" },
        );
        let gone = false;
        const exited = new Promise((done) => child.on("exit", done)).then(() => (gone = true));
        for (let i = 0; i < 2000; i++) {
          const staged = await fg("copy-killed.copies/.staging-*/**", { cwd: site.dir, onlyFiles: true, dot: true });
          if (staged.length >= at || gone) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        expect(gone, "the run was still going when killed").toBe(false);
        child.kill("SIGKILL");
        await exited;
        // nothing was published: no link yet
        expect(await readdir(site.dir)).not.toContain("copy-killed");
      }
      const done = await updateMirror(from, out);
      expect(done.targets).toBe(Object.keys(tree.bodies).length);
      expect(done.bodiesFetched + done.piecesFetched).toBeLessThan(total);
      const fresh = join(site.dir, "fresh-killed");
      await updateMirror(from, fresh);
      expect(await hashTree(out)).toEqual(await hashTree(fresh));
    } finally {
      await server.close();
    }
  }, 120_000);

  it("replaces a copy of the earlier version (a file per target, pages included) on its next run", async () => {
    const out = join(site.dir, "copy-earlier");
    // The copy as the earlier version left it: a file per target named after it, a state without a format.
    const earlier = join(site.dir, "copy-earlier.copies/0123456789abcdef");
    await mkdir(join(earlier, "v1"), { recursive: true });
    await writeFile(join(earlier, "v1/software%3Flimit=1&offset=1.json"), "{}");
    await writeFile(
      join(earlier, ".mirror.json"),
      JSON.stringify({ from: "x", rootEtag: null, rootSha256: "0", targets: 1 }),
    );
    await symlink("copy-earlier.copies/0123456789abcdef", out);
    const server = await startServer({ distDir: distA, port: 0, host: "127.0.0.1" });
    try {
      const result = await updateMirror(`${server.url.replace(/\/$/, "")}/v1`, out);
      expect(result.changed).toBe(true);
      expect(result.bodiesFetched).toBe(fetchedBodies((await treeOf(distA)).bodies));
      expect(await readdir(join(site.dir, "copy-earlier.copies"))).toEqual([(await readlink(out)).split("/").pop()]);
      expect(await fg("**/*%3F*", { cwd: out })).toEqual([]);
      expect((await readFile(join(out, "runs/all.run"))).equals(await readFile(join(distA, "runs/all.run")))).toBe(
        true,
      );
    } finally {
      await server.close();
    }
    await rm(out);
  });
});
