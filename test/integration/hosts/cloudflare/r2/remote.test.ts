// The remote R2 publication (S3 API, SigV4 by aws4fetch) against a real local HTTP server that plays a bucket and
// records every request: each request's signature is recomputed here from the SigV4 rules (not with aws4fetch); bodies
// go compressed into packs by multipart upload, the manifest shards and record after them, the pointer last with
// If-None-Match / If-Match; a pack's index is read back by ranged GETs; lists page through ListObjectsV2; pruned keys
// leave in a DeleteObjects XML body with a valid Content-MD5.
// Cloudflare's own endpoint is not reachable offline: docs/hosts/cloudflare.md says what this does not prove.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "../../../../../scripts/build.ts";
import { listBuilds, readLive, rollback } from "../../../../../scripts/hosts/cloudflare/r2/bucket.ts";
import { prune } from "../../../../../scripts/hosts/cloudflare/r2/prune.ts";
import { remoteOptionsFromEnv, remoteR2Target } from "../../../../../scripts/hosts/cloudflare/r2/remote.ts";
import type { UploadTarget } from "../../../../../scripts/hosts/cloudflare/r2/target.ts";
import { uploadToR2 } from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { LIVE_KEY } from "../../../../../scripts/hosts/cloudflare/worker/r2-layout.ts";
import { builtSite } from "../../../../helpers/build/built-site.ts";
import { launchArgs } from "../../../../helpers/process/launch.ts";
import { expectLiveBuildIs as expectBucket } from "../../../../helpers/r2/expect-bucket.ts";
import { BUCKET, KEY_ID, type S3Server, SECRET, s3Server } from "../../../../helpers/r2/s3-server.ts";

const site = builtSite({ copyContent: true, prefix: "cloudflare-r2-remote-" });
let content: string;
let dist: string;
let r2: S3Server;
let endpoint: string;

beforeAll(async () => {
  ({ content, dist } = site);
  r2 = await s3Server();
  endpoint = r2.endpoint;
}, 120_000);

afterAll(async () => {
  await r2?.close();
});

// Small packs in small parts, so the tiny fixture goes in several multipart uploads.
const target = () =>
  remoteR2Target({
    endpoint,
    bucket: BUCKET,
    accessKeyId: KEY_ID,
    secretAccessKey: SECRET,
    retry: { tries: 1, budgetMs: 10_000, baseDelayMs: 10, maxDelayMs: 10 },
    packBytes: 256 * 1024,
    partBytes: 64 * 1024,
  });

/** Every published file of `dist`, read back from the live build as a Worker would (its shard, ranged GETs of its
 *  pack): each body and every page of every list equal to the build's. */
const expectLiveBuildIs = (t: UploadTarget, distDir: string) =>
  expectBucket((key, range) => t.readBytes(key, range), distDir);

// Thousands of signed requests, and every body read back by a ranged GET: 45 s alone, more beside other tests.
it("publishes packs by multipart upload, then the manifest and record, then the pointer, each in the S3 request shape", async () => {
  const first = await uploadToR2(dist, target());
  expect(first).toMatchObject({ present: 0, switched: true, previous: null });
  expect(first.sent).toBe(first.objects);
  expect(first.packs).toBeGreaterThan(1);
  expect(
    r2.requests.filter((r) => r.badSignature !== null).map((r) => `${r.method} ${r.url}: ${r.badSignature}`),
  ).toEqual([]);
  // Packs went in parts (no body has an object of its own), and every upload was completed.
  expect(r2.requests.filter((r) => r.method === "PUT" && r.url.includes("partNumber=")).length).toBeGreaterThan(
    first.packs,
  );
  expect(r2.uploads.size).toBe(0);
  expect([...r2.objects.keys()].every((k) => /^(packs|shards|builds)\//.test(k) || k === LIVE_KEY)).toBe(true);
  await expectLiveBuildIs(target(), dist);
  expect(r2.ranges.length, "the bodies were read back by ranged GETs").toBeGreaterThan(first.files - 1);
  const puts = r2.requests.filter((r) => r.method === "PUT");
  expect(puts.at(-1)).toMatchObject({ url: `/${BUCKET}/${LIVE_KEY}` });
  expect(puts.at(-1)!.headers["if-none-match"]).toBe("*");
  expect((await readLive(target()))?.pointer.build).toBe(first.build);

  // One price changed: only the changed bodies are sent, in one pack, with the shards that changed; the pointer
  // moves with If-Match on the one read.
  const file = join(content, "tools/beta-mail.json");
  const tool = JSON.parse(await readFile(file, "utf8"));
  tool.pricingPlans[0].price = 23;
  await writeFile(file, JSON.stringify(tool));
  await build({ contentDir: content, outDir: dist });
  r2.requests.length = 0;
  const second = await uploadToR2(dist, target());
  expect(second.previous).toBe(first.build);
  expect(second.sent).toBeGreaterThan(0);
  expect(second.sent).toBeLessThan(12);
  expect(second.packs).toBe(1);
  expect(second.writes).toBe(r2.requests.filter((r) => r.method === "PUT").length);
  expect(second.writes).toBeLessThanOrEqual(10);
  const pointerPut = r2.requests.filter((r) => r.method === "PUT").at(-1)!;
  expect(pointerPut.headers["if-match"]).toMatch(/^"[0-9a-f]{32}"$/);
  expect((await listBuilds(target())).map((b) => [b.id, b.live])).toEqual([
    [second.build, true],
    [first.build, false],
  ]);
  await expectLiveBuildIs(target(), dist);

  // Rollback and forward again, then prune to one build: the other goes, with the shards only it used.
  expect(await rollback(target())).toEqual({ build: first.build, previous: second.build });
  expect(await rollback(target(), second.build)).toEqual({ build: second.build, previous: first.build });
  r2.requests.length = 0;
  const pruned = await prune(target(), 1);
  expect(pruned).toMatchObject({ kept: [second.build], removedBuilds: [first.build] });
  expect(pruned.removedShards).toBeGreaterThan(0);
  expect(pruned.bucketBytes.after).toBeLessThan(pruned.bucketBytes.before);
  await expectLiveBuildIs(target(), dist);
  const del = r2.requests.find((r) => r.method === "POST" && r.url.endsWith("?delete"))!;
  expect(del.url).toBe(`/${BUCKET}?delete`);
  expect(del.badSignature).toBeNull();
  expect(del.headers["content-md5"]).toBe(createHash("md5").update(del.body).digest("base64"));
}, 60_000);

it("R2_ENDPOINT reaches any S3-compatible endpoint instead of R2_ACCOUNT_ID's", () => {
  const env = { R2_ENDPOINT: endpoint, R2_ACCESS_KEY_ID: "k", R2_SECRET_ACCESS_KEY: "s" };
  expect(remoteOptionsFromEnv("b", env).endpoint).toBe(endpoint);
  expect(remoteOptionsFromEnv("b", { ...env, R2_ACCOUNT_ID: "abc" }).endpoint).toBe(endpoint);
}, 120_000);

it("signs keys with characters S3 encodes differently from encodeURIComponent", async () => {
  r2.requests.length = 0;
  const key = "odd/a b(1)!*'~.json";
  await target().put([{ key, body: new TextEncoder().encode("{}") }]);
  expect(r2.requests.map((r) => r.badSignature)).toEqual([null]);
  expect(r2.objects.get(key)?.body.toString()).toBe("{}");
});

it("turns an S3 error answer into one line, and a missing credential into one line naming it", async () => {
  r2.state.refuse = true;
  try {
    await expect(uploadToR2(dist, target())).rejects.toThrow(/^R2 PUT \S+: 403 AccessDenied \(Access Denied\)$/);
  } finally {
    r2.state.refuse = false;
  }
  expect(() => remoteOptionsFromEnv("b", { R2_ACCOUNT_ID: "abc" })).toThrow(
    /^--remote needs R2_ACCESS_KEY_ID in the environment/,
  );
  expect(
    remoteOptionsFromEnv("b", { R2_ACCOUNT_ID: "abc", R2_ACCESS_KEY_ID: "k", R2_SECRET_ACCESS_KEY: "s" }).endpoint,
  ).toBe("https://abc.r2.cloudflarestorage.com");
  // The command itself: exit 1, one line on stderr, nothing sent anywhere.
  const env = { ...process.env, R2_ACCOUNT_ID: "", R2_ACCESS_KEY_ID: "", R2_SECRET_ACCESS_KEY: "" };
  const run = await promisify(execFile)(
    process.execPath,
    launchArgs("scripts/commands/upload-r2.ts", "--remote", "--dist", dist),
    { env },
  ).then(
    () => ({ code: 0, stderr: "" }),
    (e: { code: number; stderr: string }) => e,
  );
  expect(run.code).toBe(1);
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(run.stderr).toMatch(/R2_ACCOUNT_ID/);
}, 60_000);
