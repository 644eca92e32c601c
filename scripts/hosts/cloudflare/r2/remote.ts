// Cloudflare R2 over its S3-compatible API (https://<ACCOUNT_ID>.r2.cloudflarestorage.com, or any S3-compatible
// endpoint by R2_ENDPOINT), signed with SigV4 by aws4fetch: PUT per small object, a multipart upload per large pack,
// a conditional PUT (If-Match, If-None-Match: *) for the live pointer, ListObjectsV2, DeleteObjects per 1,000 keys,
// GET (ranged for a pack's index) for records, shards and packs.

import { createHash } from "node:crypto";
import { AwsClient } from "aws4fetch";
import { UserError } from "../../../cli/command.ts";
import type { UploadTarget } from "./upload.ts";

export interface RemoteR2Options {
  /** e.g. https://<ACCOUNT_ID>.r2.cloudflarestorage.com */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** retries of a 5xx or 429 answer (aws4fetch backs off exponentially); default 5 */
  retries?: number;
  /** pack and multipart part sizes (tests make them small); default 64 MiB and 16 MiB */
  packBytes?: number;
  partBytes?: number;
}

export const REMOTE_ENV = ["R2_ACCOUNT_ID", "R2_ACCESS_KEY_ID", "R2_SECRET_ACCESS_KEY"] as const;

/** The remote options from the environment; a missing variable is a one-line UserError naming it. R2_ENDPOINT (any
 *  S3-compatible endpoint) stands for R2_ACCOUNT_ID. */
export function remoteOptionsFromEnv(bucket: string, env: NodeJS.ProcessEnv = process.env): RemoteR2Options {
  const missing = REMOTE_ENV.find((name) => !env[name] && !(name === "R2_ACCOUNT_ID" && env.R2_ENDPOINT));
  if (missing)
    throw new UserError(
      `--remote needs ${missing} in the environment (${REMOTE_ENV.join(", ")}; docs/hosts/cloudflare.md)`,
    );
  return {
    endpoint: env.R2_ENDPOINT || `https://${env.R2_ACCOUNT_ID}.r2.cloudflarestorage.com`,
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
  packBytes = 64 * 1024 * 1024,
  partBytes = 16 * 1024 * 1024,
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
  const xmlOf = async (what: string, res: Response) => {
    const text = await res.text();
    if (res.status !== 200) throw s3Error(what, res.status, text);
    return text;
  };
  return {
    // No batch PUT in S3: a batch is that many requests at once, and a few batches run together (64 in flight).
    batch: { objects: 16, bytes: 16_000_000, concurrency: 4 },
    packBytes,
    partBytes,
    async readBytes(key, range) {
      const headers: Record<string, string> =
        range === undefined
          ? {}
          : {
              Range:
                "suffix" in range
                  ? `bytes=-${range.suffix}`
                  : `bytes=${range.offset}-${range.offset + range.length - 1}`,
            };
      const res = await client.fetch(objectUrl(key), { method: "GET", headers });
      if (res.status === 404) {
        await res.text();
        return null;
      }
      if (res.status !== 200 && res.status !== 206) throw s3Error(`GET ${key}`, res.status, await res.text());
      return new Uint8Array(await res.arrayBuffer());
    },
    async putParts(key, body) {
      // CreateMultipartUpload, UploadPart per part (every part but the last of the same size, as R2 requires),
      // CompleteMultipartUpload; a failure aborts the upload so no part is left billed.
      const created = await xmlOf(
        `CreateMultipartUpload ${key}`,
        await client.fetch(`${objectUrl(key)}?uploads`, { method: "POST" }),
      );
      const uploadId = xmlUnescape(/<UploadId>([^<]*)<\/UploadId>/.exec(created)?.[1] ?? "");
      if (!uploadId) throw new Error(`R2 CreateMultipartUpload ${key}: no UploadId in the answer`);
      const query = (extra: string) => `${objectUrl(key)}?${extra}uploadId=${encodeURIComponent(uploadId)}`;
      try {
        const etags: string[] = [];
        for (let n = 1, at = 0; at < body.byteLength; n++, at += partBytes) {
          const part = body.subarray(at, at + partBytes);
          const res = await client.fetch(query(`partNumber=${n}&`), {
            method: "PUT",
            body: part,
            headers: { "Content-Length": String(part.byteLength) },
          });
          await xmlOf(`UploadPart ${n} of ${key}`, res);
          etags.push(res.headers.get("etag") ?? "");
        }
        const xml = `<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${xmlEscape(e)}</ETag></Part>`).join("")}</CompleteMultipartUpload>`;
        const done = await xmlOf(
          `CompleteMultipartUpload ${key}`,
          await client.fetch(query(""), { method: "POST", body: xml, headers: { "Content-Type": "application/xml" } }),
        );
        // S3 may answer 200 with an error in the body.
        if (/<Error>/.test(done)) throw s3Error(`CompleteMultipartUpload ${key}`, 200, done);
      } catch (e) {
        await client.fetch(query(""), { method: "DELETE" }).then(
          (r) => r.text(),
          () => {},
        );
        throw e;
      }
    },
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
      const all: { key: string; uploaded: number; size: number }[] = [];
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
          const size = Number(/<Size>([^<]*)<\/Size>/.exec(entry!)?.[1] ?? 0);
          if (key !== undefined)
            all.push({ key: xmlUnescape(key), uploaded: modified ? Date.parse(modified) : 0, size });
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
