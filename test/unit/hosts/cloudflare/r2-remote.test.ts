// The remote R2 upload (S3 API, SigV4 by aws4fetch) against a real local HTTP server that plays a bucket and records
// every request: each request's signature is recomputed here from the SigV4 rules (not with aws4fetch), objects
// carry the ETag as x-amz-meta-etag, removed keys leave in a DeleteObjects XML body with a valid Content-MD5.
// Cloudflare's own endpoint is not reachable offline: docs/cloudflare.md says what this does not prove.
import { execFile } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { cp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { etagOf } from "../../../../scripts/api/etag-node.ts";
import { build } from "../../../../scripts/build.ts";
import { remoteOptionsFromEnv, remoteR2Target } from "../../../../scripts/hosts/cloudflare/remote-r2.ts";
import { publishedFiles, UPLOAD_STATE_KEY, uploadToR2 } from "../../../../scripts/hosts/cloudflare/upload-r2.ts";
import { fixture, tempDir } from "../../../helpers/dirs.ts";

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

/** A bucket over HTTP: PUT, GET, POST ?delete, path-style; `refuse` makes every PUT a 403. */
function fakeR2() {
  const objects = new Map<string, { body: Buffer; meta: Record<string, string> }>();
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
      if (req.method === "PUT") {
        if (state.refuse) return xml(403, "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>");
        const meta = Object.fromEntries(
          Object.entries(req.headers)
            .filter(([h]) => h.startsWith("x-amz-meta-"))
            .map(([h, v]) => [h.slice(11), String(v)]),
        );
        objects.set(key, { body, meta });
        return res.writeHead(200, { ETag: `"${createHash("md5").update(body).digest("hex")}"` }).end();
      }
      if (req.method === "GET") {
        const object = objects.get(key);
        return object ? res.writeHead(200).end(object.body) : xml(404, "<Error><Code>NoSuchKey</Code></Error>");
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
  return { server, objects, requests, state };
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

const target = () =>
  remoteR2Target({ endpoint, bucket: BUCKET, accessKeyId: KEY_ID, secretAccessKey: SECRET, retries: 0 });

it("sends every object signed with its ETag as x-amz-meta-etag, then only deletions, each in the S3 request shape", async () => {
  const keys = await publishedFiles(dist);
  const first = await uploadToR2(dist, target());
  expect(first).toMatchObject({ first: true, sent: keys.length, deleted: 0 });
  expect(
    r2.requests.filter((r) => r.badSignature !== null).map((r) => `${r.method} ${r.url}: ${r.badSignature}`),
  ).toEqual([]);
  // The state read first (404), then one PUT per object, the state written last.
  expect(r2.requests[0]).toMatchObject({ method: "GET", url: `/${BUCKET}/${UPLOAD_STATE_KEY}` });
  expect(r2.requests.at(-1)).toMatchObject({ method: "PUT", url: `/${BUCKET}/${UPLOAD_STATE_KEY}` });
  const puts = r2.requests.filter((r) => r.method === "PUT" && !r.url.endsWith(UPLOAD_STATE_KEY));
  expect(puts.map((r) => r.url.slice(BUCKET.length + 2)).sort()).toEqual(
    keys.map((k) => k.split("/").map(encodeURIComponent).join("/")).sort(),
  );
  for (const key of keys) {
    const bytes = await readFile(join(dist, key));
    expect(r2.objects.get(key), key).toEqual({ body: bytes, meta: { etag: etagOf(bytes) } });
  }

  // A removed tool: nothing sent, its keys deleted in one DeleteObjects call.
  await rm(join(content, "tools/quill.json"));
  await build({ contentDir: content, outDir: dist });
  const remaining = new Set(await publishedFiles(dist));
  const removed = keys.filter((k) => !remaining.has(k));
  expect(removed).toContain("v1/software/quill.json");
  r2.requests.length = 0;
  const second = await uploadToR2(dist, target());
  expect(second).toMatchObject({ first: false, deleted: removed.length });
  const deletes = r2.requests.filter((r) => r.method === "POST");
  expect(deletes).toHaveLength(1);
  const del = deletes[0]!;
  expect(del.url).toBe(`/${BUCKET}?delete`);
  expect(del.badSignature).toBeNull();
  expect(del.headers["content-md5"]).toBe(createHash("md5").update(del.body).digest("base64"));
  expect(del.body.toString("utf8")).toBe(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Delete><Quiet>true</Quiet>${removed.map((k) => `<Object><Key>${k}</Key></Object>`).join("")}</Delete>`,
  );
  for (const key of removed) expect(r2.objects.has(key), key).toBe(false);
}, 60_000);

it("signs keys with characters S3 encodes differently from encodeURIComponent", async () => {
  r2.requests.length = 0;
  const key = "odd/a b(1)!*'~.json";
  await target().put([{ key, body: new TextEncoder().encode("{}"), etag: '"x"' }]);
  expect(r2.requests.map((r) => r.badSignature)).toEqual([null]);
  expect(r2.objects.get(key)?.meta).toEqual({ etag: '"x"' });
});

it("turns an S3 error answer into one line, and a missing credential into one line naming it", async () => {
  r2.state.refuse = true;
  try {
    await expect(uploadToR2(dist, target(), { full: true })).rejects.toThrow(
      /^R2 PUT \S+: 403 AccessDenied \(Access Denied\)$/,
    );
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
    ["--import", "tsx", "scripts/hosts/cloudflare/upload.ts", "--remote", "--dist", dist],
    { env },
  ).then(
    () => ({ code: 0, stderr: "" }),
    (e: { code: number; stderr: string }) => e,
  );
  expect(run.code).toBe(1);
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(run.stderr).toMatch(/R2_ACCOUNT_ID/);
}, 60_000);
