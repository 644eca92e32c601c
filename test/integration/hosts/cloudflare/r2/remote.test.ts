// The remote R2 publication (S3 API, SigV4 by aws4fetch) against a real local HTTP server that plays a bucket and
// records every request: each request's signature is recomputed here from the SigV4 rules (not with aws4fetch); bodies
// go compressed into packs by multipart upload, the manifest shards and record after them, the pointer last with
// If-None-Match / If-Match; a pack's index is read back by ranged GETs; lists page through ListObjectsV2; pruned keys
// leave in a DeleteObjects XML body with a valid Content-MD5.
// Cloudflare's own endpoint is not reachable offline: docs/hosts/cloudflare.md says what this does not prove.
import { execFile } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { cp, readFile, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "../../../../../scripts/build.ts";
import { prune } from "../../../../../scripts/hosts/cloudflare/r2/prune.ts";
import { remoteOptionsFromEnv, remoteR2Target } from "../../../../../scripts/hosts/cloudflare/r2/remote.ts";
import {
  listBuilds,
  publishedFiles,
  readLive,
  readShard,
  rollback,
  type UploadTarget,
  uploadToR2,
} from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { LIVE_KEY, packKey } from "../../../../../scripts/hosts/cloudflare/worker/r2-layout.ts";
import { fixture, tempDir } from "../../../../helpers/fs/dirs.ts";
import { launchArgs } from "../../../../helpers/process/launch.ts";

const KEY_ID = "AKIDEXAMPLE0123";
const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const BUCKET = "test-bucket";

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  /** why the signature is wrong, or null */
  badSignature: string | null;
}

const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
/** S3's URI encoding: every byte but A-Z a-z 0-9 - _ . ~ */
const uriEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** SigV4 recomputed from the request as received. */
function checkSignature(req: IncomingMessage): string | null {
  const auth = req.headers.authorization ?? "";
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/auto\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return `Authorization shape: ${auth}`;
  const [, keyId, date, signed, signature] = m as unknown as [string, string, string, string, string];
  if (keyId !== KEY_ID) return `key id ${keyId}`;
  const amzDate = String(req.headers["x-amz-date"]);
  if (!amzDate.startsWith(date)) return `x-amz-date ${amzDate}`;
  const names = signed.split(";");
  for (const required of ["host", "x-amz-date", "x-amz-content-sha256"])
    if (!names.includes(required)) return `${required} not signed`;
  const url = new URL(req.url!, "http://x");
  const path = url.pathname
    .split("/")
    .map((s) => uriEncode(decodeURIComponent(s)))
    .join("/");
  const query = [...url.searchParams]
    .map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`)
    .sort()
    .join("&");
  const headers = names.map((n) => `${n}:${String(req.headers[n] ?? "").trim()}\n`).join("");
  const canonical = [req.method, path, query, headers, signed, String(req.headers["x-amz-content-sha256"])].join("\n");
  const scope = `${date}/auto/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, date), "auto"), "s3"), "aws4_request");
  return hmac(key, toSign).toString("hex") === signature ? null : "signature mismatch";
}

/** A bucket over HTTP: PUT (If-Match, If-None-Match: *), GET (Range: bytes=a-b and bytes=-n), multipart uploads,
 *  ListObjectsV2, POST ?delete, path-style; `refuse` makes every PUT a 403. Lists page by 1,000 like S3. */
function fakeR2() {
  const objects = new Map<string, { body: Buffer; uploaded: number }>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const etag = (body: Buffer) => `"${createHash("md5").update(body).digest("hex")}"`;
  const requests: Recorded[] = [];
  const state = { refuse: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      requests.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body,
        badSignature: checkSignature(req),
      });
      const url = new URL(req.url!, "http://x");
      const [, bucket, ...rest] = url.pathname.split("/");
      const key = rest.map(decodeURIComponent).join("/");
      const xml = (status: number, text: string) =>
        res.writeHead(status, { "Content-Type": "application/xml" }).end(text);
      if (bucket !== BUCKET) return xml(404, "<Error><Code>NoSuchBucket</Code></Error>");
      const uploadId = url.searchParams.get("uploadId");
      if (req.method === "POST" && url.searchParams.has("uploads")) {
        const id = `u${uploads.size + 1}`;
        uploads.set(id, { key, parts: new Map() });
        return xml(200, `<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      if (uploadId !== null) {
        const upload = uploads.get(uploadId);
        if (!upload || upload.key !== key) return xml(404, "<Error><Code>NoSuchUpload</Code></Error>");
        if (req.method === "PUT") {
          if (state.refuse) return xml(403, "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>");
          upload.parts.set(Number(url.searchParams.get("partNumber")), body);
          return res.writeHead(200, { ETag: etag(body) }).end();
        }
        if (req.method === "DELETE") {
          uploads.delete(uploadId);
          return res.writeHead(204).end();
        }
        // Complete: the parts named, in order, each with its ETag, every part but the last of one size (R2's rule)
        const named = [...body.toString("utf8").matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>([^<]*)<\/ETag>/g)];
        const parts = named.map(([, n, tag]) => {
          const part = upload.parts.get(Number(n));
          return part && etag(part) === tag!.replace(/&quot;/g, '"') ? part : undefined;
        });
        if (parts.length === 0 || parts.some((p) => p === undefined))
          return xml(400, "<Error><Code>InvalidPart</Code></Error>");
        if (new Set(parts.slice(0, -1).map((p) => p!.byteLength)).size > 1)
          return xml(400, "<Error><Code>InvalidPart</Code><Message>parts of unequal size</Message></Error>");
        objects.set(key, { body: Buffer.concat(parts as Buffer[]), uploaded: Date.now() });
        uploads.delete(uploadId);
        return xml(200, "<CompleteMultipartUploadResult></CompleteMultipartUploadResult>");
      }
      if (req.method === "PUT") {
        if (state.refuse) return xml(403, "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>");
        const old = objects.get(key);
        const ifMatch = req.headers["if-match"];
        if (
          (req.headers["if-none-match"] === "*" && old) ||
          (ifMatch !== undefined && (!old || etag(old.body) !== ifMatch))
        )
          return xml(412, "<Error><Code>PreconditionFailed</Code></Error>");
        objects.set(key, { body, uploaded: Date.now() });
        return res.writeHead(200, { ETag: etag(body) }).end();
      }
      if (req.method === "GET" && key === "" && url.searchParams.get("list-type") === "2") {
        const prefix = url.searchParams.get("prefix") ?? "";
        const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
        const from = Number(url.searchParams.get("continuation-token") ?? 0);
        const page = keys.slice(from, from + 1000);
        const truncated = from + 1000 < keys.length;
        return xml(
          200,
          `<ListBucketResult><IsTruncated>${truncated}</IsTruncated>${page.map((k) => `<Contents><Key>${k.replace(/&/g, "&amp;")}</Key><LastModified>${new Date(objects.get(k)!.uploaded).toISOString()}</LastModified><Size>${objects.get(k)!.body.byteLength}</Size></Contents>`).join("")}${truncated ? `<NextContinuationToken>${from + 1000}</NextContinuationToken>` : ""}</ListBucketResult>`,
        );
      }
      if (req.method === "GET") {
        const object = objects.get(key);
        if (!object) return xml(404, "<Error><Code>NoSuchKey</Code></Error>");
        const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
        if (!range) return res.writeHead(200, { ETag: etag(object.body) }).end(object.body);
        const size = object.body.byteLength;
        const [from, to] = range[1] === "" ? [size - Number(range[2]), size - 1] : [Number(range[1]), Number(range[2])];
        ranges.push(req.headers.range!);
        return res
          .writeHead(206, { ETag: etag(object.body), "Content-Range": `bytes ${from}-${to}/${size}` })
          .end(object.body.subarray(Math.max(0, from), to + 1));
      }
      if (req.method === "POST" && url.searchParams.has("delete")) {
        if (req.headers["content-md5"] !== createHash("md5").update(body).digest("base64"))
          return xml(400, "<Error><Code>InvalidDigest</Code></Error>");
        for (const [, k] of body.toString("utf8").matchAll(/<Key>([^<]*)<\/Key>/g))
          objects.delete(k!.replace(/&amp;/g, "&").replace(/&lt;/g, "<"));
        return xml(200, "<DeleteResult></DeleteResult>");
      }
      xml(400, "<Error><Code>NotImplemented</Code></Error>");
    });
  });
  const ranges: string[] = [];
  return { server, objects, requests, state, uploads, ranges };
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let content: string;
let dist: string;
let r2: ReturnType<typeof fakeR2>;
let endpoint: string;

beforeAll(async () => {
  dir = await tempDir("cloudflare-r2-remote-");
  content = join(dir.path, "content");
  dist = join(dir.path, "dist");
  await cp(fixture("tiny"), content, { recursive: true });
  await build({ contentDir: content, outDir: dist });
  r2 = fakeR2();
  await new Promise<void>((ok) => r2.server.listen(0, "127.0.0.1", ok));
  endpoint = `http://127.0.0.1:${(r2.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((ok) => r2?.server.close(ok));
  await dir?.remove();
});

// Small packs in small parts, so the tiny fixture goes in several multipart uploads.
const target = () =>
  remoteR2Target({
    endpoint,
    bucket: BUCKET,
    accessKeyId: KEY_ID,
    secretAccessKey: SECRET,
    retries: 0,
    packBytes: 256 * 1024,
    partBytes: 64 * 1024,
  });

/** Every published file of `dist`, read back from the live build as a Worker would: its shard, one ranged GET of its
 *  pack, gunzipped; equal to the file. */
async function expectLiveBuildIs(t: UploadTarget, distDir: string) {
  const live = (await readLive(t))!.pointer;
  const files = await publishedFiles(distDir);
  const seen: string[] = [];
  for (const [, name] of live.shards) {
    const shard = await readShard(t, name);
    for (const [path, , size, pack, offset, length] of shard.files) {
      const stored = await t.readBytes(packKey(shard.packs[pack]!), { offset, length });
      const body = gunzipSync(stored!);
      expect(body.byteLength, path).toBe(size);
      expect(body.equals(await readFile(join(distDir, path))), path).toBe(true);
      seen.push(path);
    }
  }
  expect(seen).toEqual(files);
}

// Thousands of signed requests, and every body read back by a ranged GET: 45 s alone, more beside other tests.
it("publishes packs by multipart upload, then the manifest and record, then the pointer, each in the S3 request shape", async () => {
  const files = await publishedFiles(dist);
  const first = await uploadToR2(dist, target());
  expect(first).toMatchObject({ files: files.length, present: 0, switched: true, previous: null });
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
  expect(r2.ranges.length, "the bodies were read back by ranged GETs").toBeGreaterThan(files.length - 1);
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
    launchArgs("scripts/hosts/cloudflare/r2/command.ts", "--remote", "--dist", dist),
    { env },
  ).then(
    () => ({ code: 0, stderr: "" }),
    (e: { code: number; stderr: string }) => e,
  );
  expect(run.code).toBe(1);
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(run.stderr).toMatch(/R2_ACCOUNT_ID/);
}, 60_000);
