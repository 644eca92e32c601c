// Cloudflare R2 over its S3-compatible API (https://<ACCOUNT_ID>.r2.cloudflarestorage.com), signed with SigV4 by
// aws4fetch: PUT per object, a conditional PUT (If-Match, If-None-Match: *) for the live pointer, ListObjectsV2,
// DeleteObjects per 1,000 keys, GET for records and manifests.

import { createHash } from "node:crypto";
import { AwsClient } from "aws4fetch";
import { UserError } from "../../cli/command.ts";
import type { UploadTarget } from "./upload-r2.ts";

export interface RemoteR2Options {
  /** e.g. https://<ACCOUNT_ID>.r2.cloudflarestorage.com */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** retries of a 5xx or 429 answer (aws4fetch backs off exponentially); default 5 */
  retries?: number;
}

export const REMOTE_ENV = ["R2_ACCOUNT_ID", "R2_ACCESS_KEY_ID", "R2_SECRET_ACCESS_KEY"] as const;

/** The remote options from the environment; a missing variable is a one-line UserError naming it. */
export function remoteOptionsFromEnv(bucket: string, env: NodeJS.ProcessEnv = process.env): RemoteR2Options {
  const missing = REMOTE_ENV.find((name) => !env[name]);
  if (missing)
    throw new UserError(`--remote needs ${missing} in the environment (${REMOTE_ENV.join(", ")}; docs/cloudflare.md)`);
  return {
    endpoint: `https://${env.R2_ACCOUNT_ID}.r2.cloudflarestorage.com`,
    bucket,
    accessKeyId: env.R2_ACCESS_KEY_ID!,
    secretAccessKey: env.R2_SECRET_ACCESS_KEY!,
  };
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** The DeleteObjects request body (quiet: only failures are listed in the answer). */
export function deleteObjectsXml(keys: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Delete><Quiet>true</Quiet>${keys.map((k) => `<Object><Key>${xmlEscape(k)}</Key></Object>`).join("")}</Delete>`;
}

/** The first <Code> and <Message> of an S3 error answer, as one line. */
function s3Error(what: string, status: number, body: string): Error {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1];
  return new Error(`R2 ${what}: ${status}${code ? ` ${code}` : ""}${message ? ` (${message})` : ""}`);
}

export function remoteR2Target({
  endpoint,
  bucket,
  accessKeyId,
  secretAccessKey,
  retries = 5,
}: RemoteR2Options): UploadTarget {
  const client = new AwsClient({ accessKeyId, secretAccessKey, service: "s3", region: "auto", retries });
  const base = endpoint.replace(/\/+$/, "");
  // Path-style: /<bucket>/<key>, each segment percent-encoded.
  const objectUrl = (key: string) =>
    `${base}/${encodeURIComponent(bucket)}/${key.split("/").map(encodeURIComponent).join("/")}`;
  const putOne = async (key: string, body: Uint8Array | string, conditions: Record<string, string> = {}) => {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    const headers: Record<string, string> = { "Content-Length": String(bytes.byteLength), ...conditions };
    const res = await client.fetch(objectUrl(key), { method: "PUT", body: bytes, headers });
    const text = await res.text();
    if (res.status === 412) return false;
    if (res.status !== 200) throw s3Error(`PUT ${key}`, res.status, text);
    return true;
  };
  return {
    // No batch PUT in S3: a batch is that many requests at once, and a few batches run together (64 in flight).
    batch: { objects: 16, bytes: 16_000_000, concurrency: 4 },
    async read(key) {
      const res = await client.fetch(objectUrl(key), { method: "GET" });
      const text = await res.text();
      if (res.status === 404) return null;
      if (res.status !== 200) throw s3Error(`GET ${key}`, res.status, text);
      return { text, etag: res.headers.get("etag") ?? "" };
    },
    async put(objects) {
      await Promise.all(objects.map((o) => putOne(o.key, o.body)));
    },
    putIf: (key, text, etag) => putOne(key, text, etag === null ? { "If-None-Match": "*" } : { "If-Match": etag }),
    async list(prefix) {
      const all: { key: string; uploaded: number }[] = [];
      let token: string | undefined;
      do {
        const query = new URLSearchParams({
          "list-type": "2",
          prefix,
          ...(token ? { "continuation-token": token } : {}),
        });
        const res = await client.fetch(`${base}/${encodeURIComponent(bucket)}?${query}`, { method: "GET" });
        const text = await res.text();
        if (res.status !== 200) throw s3Error(`ListObjectsV2 ${prefix}`, res.status, text);
        for (const [, entry] of text.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const key = /<Key>([^<]*)<\/Key>/.exec(entry!)?.[1];
          const modified = /<LastModified>([^<]*)<\/LastModified>/.exec(entry!)?.[1];
          if (key !== undefined) all.push({ key: xmlUnescape(key), uploaded: modified ? Date.parse(modified) : 0 });
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(text)
          ? /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(text)?.[1]
          : undefined;
      } while (token);
      return all;
    },
    async delete(keys) {
      const body = deleteObjectsXml(keys);
      const res = await client.fetch(`${base}/${encodeURIComponent(bucket)}?delete`, {
        method: "POST",
        body,
        // S3 requires Content-MD5 on DeleteObjects.
        headers: { "Content-Type": "application/xml", "Content-MD5": createHash("md5").update(body).digest("base64") },
      });
      const text = await res.text();
      if (res.status !== 200) throw s3Error(`DeleteObjects of ${keys.length} keys`, res.status, text);
      // A 200 may still list keys it could not delete.
      if (/<Error>/.test(text))
        throw s3Error(`DeleteObjects of ${keys.length} keys`, res.status, text.slice(text.indexOf("<Error>")));
    },
  };
}

const xmlUnescape = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
