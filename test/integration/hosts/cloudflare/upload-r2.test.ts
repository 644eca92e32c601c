// Builds on R2 in motion, in workerd through Miniflare (offline), with the upload run as the real command: a reader
// hammering the Worker while build B is published over build A sees whole A answers, then whole B answers, never a
// mix; uploads killed at 10 seeded instants never move the live build, and the next upload completes without
// re-sending what arrived; rollback answers byte for byte as A did; a repeated request reads nothing from R2.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { cp, readFile, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "../../../../scripts/build.ts";
import { type LocalWorker, startLocalWorker } from "../../../../scripts/hosts/cloudflare/local-worker.ts";
import {
  bodiesInBucket,
  listBuilds,
  publishedFiles,
  readLive,
  rollback,
  uploadToR2,
} from "../../../../scripts/hosts/cloudflare/upload-r2.ts";
import { fixture, repoRoot, tempDir } from "../../../helpers/dirs.ts";
import { seeded } from "../../../helpers/seeded.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
let distA: string;
let distB: string;

/** Requests whose answers differ between A and B: totals, a tool only B has, urls, a search. */
const TARGETS = [
  "/v1/software?limit=100",
  "/v1/software?category=seo&limit=3",
  "/v1/software/bravo",
  "/v1/software/beta-mail",
  "/v1/categories",
  "/v1/best/email",
  "/v1/search?q=b",
];

beforeAll(async () => {
  dir = await tempDir("cloudflare-r2-builds-");
  const content = join(dir.path, "content");
  await cp(fixture("tiny"), content, { recursive: true });
  distA = join(dir.path, "a");
  await build({ contentDir: content, outDir: distA });
  // B: another site address (every url, so nearly every body, changes) and one tool more (every total changes).
  const site = JSON.parse(await readFile(join(content, "site.json"), "utf8"));
  await writeFile(join(content, "site.json"), JSON.stringify({ ...site, siteUrl: "https://other.example" }));
  const tool = JSON.parse(await readFile(join(content, "tools/beta-mail.json"), "utf8"));
  await writeFile(
    join(content, "tools/bravo.json"),
    JSON.stringify({ ...tool, name: "Bravo", slug: "bravo", categories: ["seo"] }),
  );
  distB = join(dir.path, "b");
  await build({ contentDir: content, outDir: distB });
}, 120_000);

afterAll(() => dir?.remove());

interface Answer {
  status: number;
  body: string;
  build: string | null;
}

async function ask(origin: string, target: string): Promise<Answer> {
  const res = await fetch(origin + target);
  return { status: res.status, body: await res.text(), build: res.headers.get("x-catalog-build") };
}

const answersOf = async (origin: string) => Promise.all(TARGETS.map((t) => ask(origin, t)));

/** `npm run upload:r2 -- --dist DIR --persist P` as a child process in a process group of its own. */
function uploadCommand(dist: string, persist: string): { done: Promise<number | null>; kill(): void } {
  const child = spawn(
    process.execPath,
    ["scripts/cli/launch.mjs", "scripts/hosts/cloudflare/upload.ts", "--dist", dist, "--persist", persist],
    { cwd: repoRoot, stdio: "ignore", detached: true },
  );
  return {
    done: new Promise((resolve) => child.on("exit", (code) => resolve(code))),
    // The whole group, as a kill of the command kills its workerd too: none is left running after the test.
    kill: () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    },
  };
}

/** lib/upload-killed.ts: the real upload, killed with its workerd at an instant of its own (`bodies=N` or `record`). */
async function killedUpload(dist: string, persist: string, at: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "test/integration/hosts/cloudflare/lib/upload-killed.ts", dist, persist, at],
    { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c));
  child.stderr!.on("data", (c: Buffer) => (output += c));
  const [, signal] = (await once(child, "exit")) as [number | null, string | null];
  expect(signal, `the upload (${at}) was to be killed before it ended:\n${output}`).toBe("SIGKILL");
  return output;
}

/** Serves the bucket's live build (after publishing `dist` there) on a port of its own, counting R2 reads. */
async function serving(dist: string, persist: string): Promise<LocalWorker> {
  const uploader = await startLocalWorker({ distDir: dist, mode: "r2", r2Persist: persist, port: 0, uploader: true });
  await uploadToR2(dist, await uploader.uploadTarget());
  await uploader.close();
  return startLocalWorker({ distDir: dist, mode: "r2", r2Persist: persist, port: 0, countReads: true });
}

it("a reader during the upload of B over A sees whole A answers, then whole B answers; rollback answers as A did", async () => {
  const persist = join(dir.path, "hammer.r2");
  const worker = await serving(distA, persist);
  try {
    const a = await answersOf(worker.url);
    const idA = a[0]!.build!;
    expect(a.every((x) => x.build === idA)).toBe(true);
    const upload = uploadCommand(distB, persist);
    let exited = false;
    void upload.done.then(() => (exited = true));
    const seen: { build: string | null; target: string }[] = [];
    let b: Answer[] | undefined;
    // Sequential reads until the upload is over and the pointer's isolate cache (1 s) has passed, bounded.
    for (let round = 0, after = 0; round < 5000 && after < 30; round++) {
      if (exited) after++;
      for (const [i, target] of TARGETS.entries()) {
        const got = await ask(worker.url, target);
        seen.push({ build: got.build, target });
        if (got.build === idA) {
          expect(got, `${target} from A`).toEqual(a[i]);
          continue;
        }
        b ??= await answersOf(worker.url).then((x) => (x.every((y) => y.build === got.build) ? x : undefined));
        expect(b, `${target}: an answer from an unknown build ${got.build}`).toBeDefined();
        expect(got, `${target} from B`).toEqual(b![i]);
      }
      if (exited) await new Promise((r) => setTimeout(r, 50));
    }
    expect(await upload.done).toBe(0);
    const builds = seen.map((s) => s.build);
    const firstB = builds.findIndex((id) => id !== idA);
    expect(firstB, "B went live").toBeGreaterThan(0);
    expect(
      builds.slice(firstB).every((id) => id !== idA),
      "once B answers, A never does again",
    ).toBe(true);
    expect(
      b!.every((x, i) => x.body !== a[i]!.body),
      "every target tells A from B",
    ).toBe(true);

    // Rollback in one step: A's answers, byte for byte, from the running Worker.
    const uploader = await startLocalWorker({
      distDir: distA,
      mode: "r2",
      r2Persist: persist,
      port: 0,
      uploader: true,
    });
    try {
      const target = await uploader.uploadTarget();
      expect(await rollback(target)).toEqual({ build: idA, previous: b![0]!.build });
      expect((await listBuilds(target)).map((x) => x.live)).toEqual([false, true]);
    } finally {
      await uploader.close();
    }
    await new Promise((r) => setTimeout(r, 1100));
    expect(await answersOf(worker.url)).toEqual(a);
  } finally {
    await worker.close();
  }
}, 120_000);

it("uploads killed at 10 seeded instants leave A live; the next upload completes B without re-sending what arrived", async () => {
  const persist = join(dir.path, "killed.r2");
  const worker = await serving(distA, persist);
  const uploader = await startLocalWorker({ distDir: distA, mode: "r2", r2Persist: persist, port: 0, uploader: true });
  try {
    const target = await uploader.uploadTarget();
    const idA = (await readLive(target))!.pointer.build;
    const a = await answersOf(worker.url);
    const hashes = async (dist: string) =>
      new Set(
        await Promise.all(
          (await publishedFiles(dist)).map(async (f) =>
            createHash("sha256")
              .update(await readFile(join(dist, f)))
              .digest("hex"),
          ),
        ),
      );
    const [inA, inB] = [await hashes(distA), await hashes(distB)];
    const newInB = [...inB].filter((h) => !inA.has(h)).length;
    expect(newInB, "B has bodies enough to kill between many puts").toBeGreaterThan(500);
    // bodies of B in the bucket's packs (A's packs hold exactly A's bodies)
    const arrived = async () => (await bodiesInBucket(target)).size - inA.size;
    const random = seeded(20261125);
    // Two kills of the real command in its start-up and hashing; seven at seeded counts of B's new bodies, the last
    // leaving at least 15 % to send (more than the puts that can be in flight); one once B is complete, before the
    // switch.
    const kills = [
      { afterMs: 200 + Math.floor(random() * 600) },
      { afterMs: 800 + Math.floor(random() * 600) },
      ...Array.from({ length: 7 }, () => Math.floor(newInB * (0.02 + 0.83 * random())))
        .sort((x, y) => x - y)
        .map((bodies) => ({ at: `bodies=${inA.size + bodies}` })),
      { at: "record" },
    ];
    for (const [n, kill] of kills.entries()) {
      const before = await arrived();
      if ("afterMs" in kill) {
        const upload = uploadCommand(distB, persist);
        await new Promise((r) => setTimeout(r, kill.afterMs));
        upload.kill();
        expect(await upload.done, `kill ${n + 1} came before the upload ended`).toBeNull();
      } else {
        const output = await killedUpload(distB, persist, kill.at);
        const sent = Number(/^killed: sent (\d+) bodies$/m.exec(output)?.[1]);
        expect(sent, `kill ${n + 1} (${kill.at}): ${output}`).toBeGreaterThanOrEqual(0);
        // whatever arrived before is not sent again: the complete build's last upload sent exactly what was missing
        if (kill.at === "record") expect(sent).toBe(newInB - before);
      }
      expect((await readLive(target))!.pointer.build, `after kill ${n + 1}`).toBe(idA);
      await new Promise((r) => setTimeout(r, 1100)); // the Worker's pointer cache
      expect(await answersOf(worker.url), `answers after kill ${n + 1}`).toEqual(a);
    }
    // B is complete in the bucket (listed, not live) and every body arrived: the next upload only switches
    const listed = await listBuilds(target);
    expect(listed.map((x) => x.live)).toEqual([false, true]);
    expect(await arrived()).toBe(newInB);
    const done = await uploadToR2(distB, target);
    expect(done).toMatchObject({ switched: true, sent: 0, present: inB.size, build: listed[0]!.id });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await answersOf(worker.url)).every((x) => x.build === done.build)).toBe(true);
  } finally {
    await uploader.close();
    await worker.close();
  }
}, 180_000);

/** One GET as sent, without a client that decodes for us: status, headers, the bytes as they came. */
function rawGet(url: string, acceptEncoding: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
        .on("error", reject)
        .end();
    },
  );
}

it("every body served by URL decodes to the build's bytes, as stored with gzip and decoded without", async () => {
  const worker = await serving(distA, join(dir.path, "decode.r2"));
  try {
    // The hash tree (E2) names every body served by URL with its SHA-256: the Node server's bytes.
    const root = JSON.parse(await readFile(join(distA, "v1/sync/index.json"), "utf8")) as { data: object };
    const expected = new Map<string, string>();
    for (const shard of Object.keys(root.data)) {
      const { data } = JSON.parse(await readFile(join(distA, `v1/sync/${shard}.json`), "utf8")) as {
        data: Record<string, { sha256: string }>;
      };
      for (const [target, body] of Object.entries(data)) expected.set(target, body.sha256);
    }
    expect(expected.size).toBeGreaterThan(1000);
    const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    for (const [target, hash] of expected) {
      const gzip = await rawGet(worker.url + target, "gzip");
      expect(gzip.status, target).toBe(200);
      expect(gzip.headers["content-encoding"], target).toBe("gzip");
      // the Worker sets none on a coded answer; workerd may add the stored length
      if (gzip.headers["content-length"] !== undefined)
        expect(gzip.headers["content-length"], target).toBe(String(gzip.body.byteLength));
      expect(sha256(gunzipSync(gzip.body)), target).toBe(hash);
      const plain = await rawGet(worker.url + target, "identity");
      expect(plain.headers["content-encoding"], target).toBeUndefined();
      expect(sha256(plain.body), target).toBe(hash);
      // workerd, as Cloudflare's front line, hands the Worker `Accept-Encoding: br, gzip` whatever the client sent and
      // decodes the gzip answer for a client that does not take it: the ETag stays the representation's it sent.
      expect(plain.headers.etag, target).toBe(gzip.headers.etag);
    }
  } finally {
    await worker.close();
  }
}, 120_000);

it("a repeated request reads no shard and no body (edge cache, shards in memory); route-decided errors read nothing", async () => {
  const worker = await serving(distA, join(dir.path, "reads.r2"));
  try {
    const reads = async (target: string) => {
      const { headers } = await fetch(worker.url + target);
      return `${headers.get("x-r2-reads")}: ${headers.get("x-r2-read-kinds")}`;
    };
    // the first request of a fresh isolate: the pointer, the tool's manifest shard, its body: each once
    expect(await reads("/v1/software/beta-mail")).toBe("3: pointer=1 manifest=1 body=1");
    // again: nothing but the pointer, and that only if a second has passed (a loaded machine)
    expect(await reads("/v1/software/beta-mail")).toMatch(/^[01]: pointer=[01] manifest=0 body=0$/);
    expect(await reads("/v1/nope")).toBe("0: pointer=0 manifest=0 body=0");
    expect(await reads("/v1/software?limit=0")).toBe("0: pointer=0 manifest=0 body=0");
  } finally {
    await worker.close();
  }
}, 60_000);

it("start:cloudflare --r2 --as-is listens only once a build is live, then follows uploads and a rollback without a restart", async () => {
  const persist = join(dir.path, "follow.r2");
  const server = spawn(
    process.execPath,
    [
      "scripts/cli/launch.mjs",
      "scripts/hosts/cloudflare/start.ts",
      "--dist",
      distA,
      "--r2",
      "--as-is",
      "--persist",
      persist,
    ],
    { cwd: repoRoot, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  server.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const origin = () => /at (http:\/\/[^\s]+) \(/.exec(stdout)?.[1];
  const until = async (what: string, ok: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 600; i++) {
      if (await ok()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}:\n${stdout}`);
  };
  try {
    await until("the waiting line", () => stdout.includes("waiting for a complete build"));
    expect(origin(), "no address before a build is live").toBeUndefined();
    expect(await uploadCommand(distA, persist).done).toBe(0);
    await until("the address", () => origin() !== undefined);
    const a = await answersOf(origin()!);
    expect(new Set(a.map((x) => x.build)).size).toBe(1);
    expect(await uploadCommand(distB, persist).done).toBe(0);
    await until("B", async () => (await ask(origin()!, TARGETS[0]!)).build !== a[0]!.build);
    const rolled = spawn(
      process.execPath,
      [
        "scripts/cli/launch.mjs",
        "scripts/hosts/cloudflare/upload.ts",
        "--dist",
        distA,
        "--persist",
        persist,
        "--rollback",
      ],
      { cwd: repoRoot, stdio: "ignore" },
    );
    expect(await new Promise((r) => rolled.on("exit", r))).toBe(0);
    await until("A again", async () => (await ask(origin()!, TARGETS[0]!)).build === a[0]!.build);
    expect(await answersOf(origin()!)).toEqual(a);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.on("exit", r));
  }
}, 120_000);
