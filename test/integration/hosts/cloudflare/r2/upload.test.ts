// Builds on R2 in motion, in workerd through Miniflare (offline), with the upload run as the real command: a reader
// hammering the Worker while build B is published over build A sees whole A answers, then whole B answers, never a
// mix; rollback answers byte for byte as A did; a repeated request reads nothing from R2 (kills during an upload:
// upload-kills.test.ts).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { expect, it } from "vitest";
import { listBuilds, rollback } from "../../../../../scripts/hosts/cloudflare/r2/bucket.ts";
import { repoRoot } from "../../../../helpers/fs/dirs.ts";
import {
  type Answer,
  ab,
  answersOf,
  ask,
  buildsAB,
  serving,
  TARGETS,
  uploadCommand,
} from "../../../../helpers/r2/builds-ab.ts";

buildsAB();

it("a reader during the upload of B over A sees whole A answers, then whole B answers; rollback answers as A did", async () => {
  const persist = join(ab.dir, "hammer.r2");
  const worker = await serving(ab.distA, persist);
  try {
    const a = await answersOf(worker.url);
    const idA = a[0]!.build!;
    expect(a.every((x) => x.build === idA)).toBe(true);
    const upload = uploadCommand(ab.distB, persist);
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

    // Rollback in one step (through the serving workerd's uploader Worker): A's answers, byte for byte, from the
    // running Worker.
    const target = await worker.uploadTarget();
    expect(await rollback(target)).toEqual({ build: idA, previous: b![0]!.build });
    expect((await listBuilds(target)).map((x) => x.live)).toEqual([false, true]);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await answersOf(worker.url)).toEqual(a);
  } finally {
    await worker.close();
  }
}, 120_000);

/** One GET as sent, without a client that decodes for us: status, headers, the bytes as they came (null: no
 *  Accept-Encoding at all). */
function rawGet(url: string, acceptEncoding: string | null) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers: acceptEncoding === null ? {} : { "accept-encoding": acceptEncoding } }, (res) => {
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
  const worker = await serving(ab.distA, join(ab.dir, "decode.r2"));
  try {
    // The hash tree (E2) names every body served by URL but the list pages with its SHA-256 (the Node server's
    // bytes), and each list's and the export's pieces by id (the SHA-256 of the piece's body); every page of the
    // lists at a few limits is its page file's.
    const root = JSON.parse(await readFile(join(ab.distA, "v1/sync/index.json"), "utf8")) as { data: object };
    const expected = new Map<string, string>();
    type Entry = { sha256: string; pieces?: [string][]; parts?: ({ pieces: [string][] } | { text: string })[] };
    const listPieces = new Set<string>();
    const pieces = (ids: [string][], list = false) => {
      for (const [id] of ids) expected.set(`/v1/sync/pieces/${id}.json`, id);
      if (list) for (const [id] of ids) listPieces.add(`/v1/sync/pieces/${id}.json`);
    };
    for (const shard of Object.keys(root.data)) {
      const { data } = JSON.parse(await readFile(join(ab.distA, `v1/sync/${shard}.json`), "utf8")) as {
        data: Record<string, Entry>;
      };
      for (const [target, body] of Object.entries(data)) {
        // a list's entry hashes its run, no body served at its target
        if (body.pieces) pieces(body.pieces, true);
        else expected.set(target, body.sha256);
        for (const part of body.parts ?? []) if ("pieces" in part) pieces(part.pieces);
      }
    }
    const index = JSON.parse(await readFile(join(ab.distA, "build-index.json"), "utf8")) as {
      lists: Record<string, { lengths: number[] }>;
    };
    for (const [filter, { lengths }] of Object.entries(index.lists))
      for (const limit of [1, 2, 3, 100])
        for (let offset = 0; offset <= lengths.length; offset++) {
          const file = join(ab.distA, `v1/software/pages/${filter}/${limit}/${offset}.json`);
          const category = filter === "all" ? "" : `&category=${filter.slice("category/".length)}`;
          const hash = createHash("sha256")
            .update(await readFile(file))
            .digest("hex");
          expected.set(`/v1/software?limit=${limit}&offset=${offset}${category}`, hash);
        }
    expect(expected.size).toBeGreaterThan(80);
    const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    const etagOf = (b: Buffer) => `"${createHash("sha256").update(b).digest("base64url").slice(0, 22)}"`;
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
      // The Worker answers the client's own Accept-Encoding (request.cf.clientAcceptEncoding), not the `br, gzip`
      // workerd hands it: the identity representation, with its own ETag. A list page (written by the Worker around
      // its items), a list's piece (stored as it is) and the export (streamed from its parts) are compressed on the
      // way out (workerd here, the edge there), keeping their one ETag; any other body is sent as stored, the gzip
      // representation with its own.
      const page =
        target.startsWith("/v1/software?") ||
        target === "/v1/export/catalog.json" ||
        (target.startsWith("/v1/sync/pieces/") && listPieces.has(target));
      expect(plain.headers.etag, target).toBe(etagOf(plain.body));
      expect(gzip.headers.etag, target).toBe(page ? plain.headers.etag : etagOf(plain.body).replace(/"$/, '-gzip"'));
      const none = await rawGet(worker.url + target, null);
      expect(none.headers["content-encoding"], target).toBeUndefined();
      expect(none.body.equals(plain.body), target).toBe(true);
    }
  } finally {
    await worker.close();
  }
}, 120_000);

it("a repeated request reads no shard and no body (edge cache, shards in memory), a list page included; route-decided errors read nothing", async () => {
  const worker = await serving(ab.distA, join(ab.dir, "reads.r2"));
  try {
    const reads = async (target: string) => {
      const { headers } = await fetch(worker.url + target);
      return `${headers.get("x-r2-reads")}: ${headers.get("x-r2-read-kinds")}`;
    };
    // the first request of a fresh isolate: the pointer, the tool's manifest shard, its body: each once
    expect(await reads("/v1/software/beta-mail")).toBe("3: pointer=1 manifest=1 body=1");
    // again: nothing but the pointer, and that only if a second has passed (a loaded machine)
    expect(await reads("/v1/software/beta-mail")).toMatch(/^[01]: pointer=[01] manifest=0 body=0$/);
    // a list page: one ranged read of its items in its piece, once (its list's shard is the one just read: the tiny
    // build's keys make one shard); then the page from the edge cache
    expect(await reads("/v1/software?limit=3&offset=1")).toMatch(/^[12]: pointer=[01] manifest=0 body=1$/);
    expect(await reads("/v1/software?limit=3&offset=1")).toMatch(/^[01]: pointer=[01] manifest=0 body=0$/);
    // another window on the same list: its shard is in memory, one ranged read
    expect(await reads("/v1/software?limit=2&offset=0")).toMatch(/^[12]: pointer=[01] manifest=0 body=1$/);
    expect(await reads("/v1/nope")).toBe("0: pointer=0 manifest=0 body=0");
    expect(await reads("/v1/software?limit=0")).toBe("0: pointer=0 manifest=0 body=0");
  } finally {
    await worker.close();
  }
}, 60_000);

it("start:cloudflare --r2 --as-is listens only once a build is live, then follows uploads and a rollback without a restart", async () => {
  const persist = join(ab.dir, "follow.r2");
  const server = spawn(
    process.execPath,
    [
      "scripts/launcher/launch.cjs",
      "scripts/commands/start-cloudflare.ts",
      "--dist",
      ab.distA,
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
    expect(await uploadCommand(ab.distA, persist).done).toBe(0);
    await until("the address", () => origin() !== undefined);
    const a = await answersOf(origin()!);
    expect(new Set(a.map((x) => x.build)).size).toBe(1);
    expect(await uploadCommand(ab.distB, persist).done).toBe(0);
    await until("B", async () => (await ask(origin()!, TARGETS[0]!)).build !== a[0]!.build);
    const rolled = spawn(
      process.execPath,
      [
        "scripts/launcher/launch.cjs",
        "scripts/commands/upload-r2.ts",
        "--dist",
        ab.distA,
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
