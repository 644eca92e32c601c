// Cloudflare R2 over its S3-compatible API (https://<ACCOUNT_ID>.r2.cloudflarestorage.com, or any S3-compatible
// endpoint by R2_ENDPOINT), signed with SigV4 by aws4fetch's signer: PUT per small object, a multipart upload per
// large pack, a conditional PUT (If-Match, If-None-Match: *) for the live pointer, ListObjectsV2, DeleteObjects per
// 1,000 keys, GET (ranged for a pack's index) for records, shards and packs.
// Every request goes through net/: deadlines per phase, and the one retry policy. What is tried again, and how:
// GET, HEAD, PUT, UploadPart, ListObjectsV2, DeleteObjects and the abort are idempotent and tried again as they are;
// CreateMultipartUpload too (a lost answer leaves an unused upload, which R2 aborts after 7 days);
// CompleteMultipartUpload and the conditional PUT of the pointer only after reading what the bucket now holds
// (the pack complete, the pointer ours: done; the pointer another's: the condition failed).

import { createHash } from "node:crypto";
import { AwsV4Signer } from "aws4fetch";
import { UserError } from "../../../cli/command.ts";
import { type HttpAnswer, httpRequest } from "../../../net/http-request.ts";
import {
  DEFAULT_DEADLINES,
  DEFAULT_RETRY,
  type Deadlines,
  networkSettingsFromEnv,
  Retryable,
  type RetryClock,
  type RetryPolicy,
  realClock,
  retryAfterMs,
  retryableStatus,
  withRetries,
} from "../../../net/retry.ts";
import type { UploadTarget } from "./target.ts";

export interface RemoteR2Options {
  /** e.g. https://<ACCOUNT_ID>.r2.cloudflarestorage.com */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** each attempt's deadlines; default DEFAULT_DEADLINES (R2_CONNECT_TIMEOUT, R2_ANSWER_TIMEOUT, R2_STALL_TIMEOUT) */
  deadlines?: Deadlines;
  /** attempts and budget per request; default DEFAULT_RETRY (R2_TRIES, R2_RETRY_FOR) */
  retry?: RetryPolicy;
  /** the clock and dice of the backoff (tests) */
  clock?: RetryClock;
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
  if (env.R2_ENDPOINT && !URL.canParse(env.R2_ENDPOINT))
    throw new UserError(`R2_ENDPOINT is not a URL: give one such as https://minio.example:9000`, 2);
  let network: ReturnType<typeof networkSettingsFromEnv>;
  try {
    network = networkSettingsFromEnv("R2", env);
  } catch (e) {
    throw new UserError(`${(e as Error).message} (docs/hosts/cloudflare.md#deadlines-and-retries)`, 2);
  }
  return {
    endpoint: env.R2_ENDPOINT || `https://${env.R2_ACCOUNT_ID}.r2.cloudflarestorage.com`,
    bucket,
    accessKeyId: env.R2_ACCESS_KEY_ID!,
    secretAccessKey: env.R2_SECRET_ACCESS_KEY!,
    ...network,
  };
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** The DeleteObjects request body (quiet: only failures are listed in the answer). */
export function deleteObjectsXml(keys: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Delete><Quiet>true</Quiet>${keys.map((k) => `<Object><Key>${xmlEscape(k)}</Key></Object>`).join("")}</Delete>`;
}

/** An S3 error answer's status, first <Code> and <Message>, as a few words. */
function s3Cause(status: number, body: string): string {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1];
  return `${status}${code ? ` ${code}` : ""}${message ? ` (${message.slice(0, 200)})` : ""}`;
}

/** An S3 error answer as one line. */
const s3Error = (what: string, status: number, body: string) => new Error(`R2 ${what}: ${s3Cause(status, body)}`);

/** S3's codes for "not now": tried again like a 5xx whatever their status (S3 answers a slow body 400). */
const RETRYABLE_CODES = new Set(["RequestTimeout", "InternalError", "SlowDown", "ServiceUnavailable"]);

/** The answer when its status is one of `ok`; a Retryable when it says "not now"; else the S3 error. */
function expectStatus(what: string, res: HttpAnswer, ok: readonly number[]): HttpAnswer {
  if (ok.includes(res.status)) return res;
  const text = res.body.toString("utf8");
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? "";
  if (retryableStatus(res.status) || RETRYABLE_CODES.has(code))
    throw new Retryable(s3Cause(res.status, text), retryAfterMs(res.headers.get("retry-after")));
  throw s3Error(what, res.status, text);
}

export function remoteR2Target({
  endpoint,
  bucket,
  accessKeyId,
  secretAccessKey,
  deadlines = DEFAULT_DEADLINES,
  retry = DEFAULT_RETRY,
  clock = realClock,
  packBytes = 64 * 1024 * 1024,
  partBytes = 16 * 1024 * 1024,
}: RemoteR2Options): UploadTarget {
  const signingKeys = new Map();
  const base = endpoint.replace(/\/+$/, "");
  // Path-style: /<bucket>/<key>, each segment percent-encoded.
  const objectUrl = (key: string) =>
    `${base}/${encodeURIComponent(bucket)}/${key.split("/").map(encodeURIComponent).join("/")}`;
  const bucketUrl = `${base}/${encodeURIComponent(bucket)}`;

  /** One attempt: signed anew (a fresh X-Amz-Date), sent with the deadlines. The payload is not signed
   *  (UNSIGNED-PAYLOAD), so a body is sent as it is. */
  async function attempt(
    method: string,
    url: string,
    headers: Record<string, string> = {},
    body?: Uint8Array,
  ): Promise<HttpAnswer> {
    const signed = await new AwsV4Signer({
      method,
      url,
      headers,
      accessKeyId,
      secretAccessKey,
      service: "s3",
      region: "auto",
      cache: signingKeys,
    }).sign();
    return httpRequest({ method, url: signed.url, headers: Object.fromEntries(signed.headers), body }, deadlines);
  }
  /** An idempotent request, tried again by the policy; the answer once its status is one of `ok`. */
  const send = (
    what: string,
    method: string,
    url: string,
    { headers, body, ok = [200] }: { headers?: Record<string, string>; body?: Uint8Array; ok?: number[] } = {},
    policy = retry,
  ) =>
    withRetries(
      `R2 ${what}`,
      policy,
      async () => expectStatus(what, await attempt(method, url, headers, body), ok),
      clock,
    );
  const text = (res: HttpAnswer) => res.body.toString("utf8");

  /** Whether `key` holds an object of `size` bytes (one HEAD; a failure is Retryable to the caller's loop). */
  const holds = async (key: string, size: number) => {
    const res = expectStatus(`HEAD ${key}`, await attempt("HEAD", objectUrl(key)), [200, 404]);
    return res.status === 200 && Number(res.headers.get("content-length")) === size;
  };
  /** The object's text and ETag in one attempt, for a check before trying a request again. */
  const readOnce = async (key: string) => {
    const res = expectStatus(`GET ${key}`, await attempt("GET", objectUrl(key)), [200, 404]);
    return res.status === 404 ? null : { text: text(res), etag: res.headers.get("etag") ?? "" };
  };

  const putOne = (key: string, body: Uint8Array | string) =>
    send(`PUT ${key}`, "PUT", objectUrl(key), {
      body: typeof body === "string" ? new TextEncoder().encode(body) : body,
    });

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
      const res = await send(`GET ${key}`, "GET", objectUrl(key), { headers, ok: [200, 206, 404] });
      return res.status === 404 ? null : new Uint8Array(res.body);
    },
    async putParts(key, body) {
      // CreateMultipartUpload, UploadPart per part (every part but the last of the same size, as R2 requires),
      // CompleteMultipartUpload; a failure aborts the upload so no part is left billed.
      const created = text(await send(`CreateMultipartUpload ${key}`, "POST", `${objectUrl(key)}?uploads`));
      const uploadId = xmlUnescape(/<UploadId>([^<]*)<\/UploadId>/.exec(created)?.[1] ?? "");
      if (!uploadId) throw new Error(`R2 CreateMultipartUpload ${key}: no UploadId in the answer`);
      const query = (extra: string) => `${objectUrl(key)}?${extra}uploadId=${encodeURIComponent(uploadId)}`;
      try {
        const etags: string[] = [];
        for (let n = 1, at = 0; at < body.byteLength; n++, at += partBytes) {
          const part = body.subarray(at, at + partBytes);
          const res = await send(`UploadPart ${n} of ${key}`, "PUT", query(`partNumber=${n}&`), { body: part });
          etags.push(res.headers.get("etag") ?? "");
        }
        const xml = new TextEncoder().encode(
          `<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${xmlEscape(e)}</ETag></Part>`).join("")}</CompleteMultipartUpload>`,
        );
        const what = `CompleteMultipartUpload ${key}`;
        await withRetries(
          `R2 ${what}`,
          retry,
          async (_n, previous) => {
            // An attempt whose answer was lost may have completed it: a pack is named by its bytes' hash, so an
            // object of its size under its name is this pack.
            if (previous && (await holds(key, body.byteLength))) return;
            const res = await attempt("POST", query(""), { "Content-Type": "application/xml" }, xml);
            const answer = text(res);
            if (res.status === 404 && previous && (await holds(key, body.byteLength))) return;
            expectStatus(what, res, [200]);
            // S3 may answer 200 with an error in the body.
            if (/<Error>/.test(answer)) expectStatus(what, { ...res, status: 500 }, [200]);
          },
          clock,
        );
      } catch (e) {
        // Best effort, briefly: the upload has failed already, and R2 aborts what is left after 7 days.
        await send(
          `AbortMultipartUpload ${key}`,
          "DELETE",
          query(""),
          { ok: [200, 204, 404] },
          {
            ...retry,
            tries: 2,
            budgetMs: Math.min(retry.budgetMs, 5_000),
          },
        ).catch(() => {});
        throw e;
      }
    },
    async read(key) {
      const res = await send(`GET ${key}`, "GET", objectUrl(key), { ok: [200, 404] });
      return res.status === 404 ? null : { text: text(res), etag: res.headers.get("etag") ?? "" };
    },
    async put(objects) {
      await Promise.all(objects.map((o) => putOne(o.key, o.body)));
    },
    putIf(key, body, etag) {
      const what = `PUT ${key} (${etag === null ? "If-None-Match: *" : `If-Match: ${etag}`})`;
      const bytes = new TextEncoder().encode(body);
      return withRetries(
        `R2 ${what}`,
        retry,
        async (_n, previous) => {
          // Not tried again blindly: an attempt whose answer was lost may have switched it (ours there: done),
          // and another writer may have since (the condition no longer holds: not switched).
          if (previous) {
            const now = await readOnce(key);
            if (now?.text === body) return true;
            if ((now?.etag ?? null) !== etag) return false;
          }
          const conditions: Record<string, string> = etag === null ? { "If-None-Match": "*" } : { "If-Match": etag };
          const res = expectStatus(what, await attempt("PUT", objectUrl(key), conditions, bytes), [200, 412]);
          return res.status === 200;
        },
        clock,
      );
    },
    async list(prefix) {
      const all: { key: string; uploaded: number; size: number }[] = [];
      let token: string | undefined;
      do {
        const query = new URLSearchParams({
          "list-type": "2",
          prefix,
          ...(token ? { "continuation-token": token } : {}),
        });
        const page = text(await send(`ListObjectsV2 ${prefix}`, "GET", `${bucketUrl}?${query}`));
        for (const [, entry] of page.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const key = /<Key>([^<]*)<\/Key>/.exec(entry!)?.[1];
          const modified = /<LastModified>([^<]*)<\/LastModified>/.exec(entry!)?.[1];
          const size = Number(/<Size>([^<]*)<\/Size>/.exec(entry!)?.[1] ?? 0);
          if (key !== undefined)
            all.push({ key: xmlUnescape(key), uploaded: modified ? Date.parse(modified) : 0, size });
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(page)
          ? /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(page)?.[1]
          : undefined;
      } while (token);
      return all;
    },
    async delete(keys) {
      const body = new TextEncoder().encode(deleteObjectsXml(keys));
      const what = `DeleteObjects of ${keys.length} keys`;
      const answer = text(
        await send(what, "POST", `${bucketUrl}?delete`, {
          body,
          // S3 requires Content-MD5 on DeleteObjects.
          headers: {
            "Content-Type": "application/xml",
            "Content-MD5": createHash("md5").update(body).digest("base64"),
          },
        }),
      );
      // A 200 may still list keys it could not delete.
      if (/<Error>/.test(answer)) throw s3Error(what, 200, answer.slice(answer.indexOf("<Error>")));
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
