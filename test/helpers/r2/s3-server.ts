// A bucket over HTTP that speaks the part of the S3 API upload:r2 --remote uses, records every request, checks every
// SigV4 signature independently (recomputed here from the signing rules, not with aws4fetch), and injects the
// faults a network and an object store really have, by rule (this request, this many times) or at a seeded rate:
//   status       answered 500 InternalError, 503 SlowDown or 429 SlowDown; nothing applied
//   reset        the connection dropped while the request arrives (mid-body when it has one); nothing applied
//   stall        the request read and never answered (until the client gives up); nothing applied
//   cut          applied, then the answer cut halfway through its body (an answer with no body: lost instead)
//   stall-answer applied, then the answer's headers and half its body, and nothing more
//   lose         applied, then the connection dropped without a word: the client cannot know it was
// Path-style (/<bucket>/<key>): PUT (If-Match, If-None-Match: *), GET (Range: bytes=a-b and bytes=-n), HEAD, multipart
// uploads that refuse parts of unequal size or a wrong part ETag, ListObjectsV2 paged by 1,000, DeleteObjects with
// Content-MD5; `refuse` makes every PUT a 403.
import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { seeded } from "../random/seeded.ts";

export const KEY_ID = "AKIDEXAMPLE0123";
export const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
export const BUCKET = "test-bucket";

export type Operation =
  | "PutObject"
  | "GetObject"
  | "HeadObject"
  | "ListObjectsV2"
  | "DeleteObjects"
  | "CreateMultipartUpload"
  | "UploadPart"
  | "CompleteMultipartUpload"
  | "AbortMultipartUpload"
  | "Unknown";

export type FaultKind = "status" | "reset" | "stall" | "cut" | "stall-answer" | "lose";

/** What a rule or the dice see of a request before it is handled. */
export interface RequestInfo {
  method: string;
  op: Operation;
  key: string;
  headers: IncomingMessage["headers"];
}

export interface Recorded {
  method: string;
  url: string;
  op: Operation;
  key: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  /** why the signature is wrong, or null */
  badSignature: string | null;
  /** the fault injected into this request, if any */
  fault: FaultKind | null;
}

export interface FaultRule {
  match: (request: RequestInfo) => boolean;
  fault: FaultKind;
  /** how many matching requests get it; default 1 */
  times?: number;
  /** for `status`: which; default 503 */
  status?: 429 | 500 | 503;
}

const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
/** S3's URI encoding: every byte but A-Z a-z 0-9 - _ . ~ */
const uriEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** SigV4 recomputed from the request as received. */
export function checkSignature(req: IncomingMessage): string | null {
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

/** The operation and key of a request, from its method, path and query. */
function classify(method: string, url: URL): { bucket: string; key: string; op: Operation } {
  const [, bucket = "", ...rest] = url.pathname.split("/");
  const key = rest.map(decodeURIComponent).join("/");
  const q = url.searchParams;
  const op: Operation =
    method === "POST" && q.has("uploads")
      ? "CreateMultipartUpload"
      : method === "PUT" && q.has("uploadId")
        ? "UploadPart"
        : method === "POST" && q.has("uploadId")
          ? "CompleteMultipartUpload"
          : method === "DELETE" && q.has("uploadId")
            ? "AbortMultipartUpload"
            : method === "PUT"
              ? "PutObject"
              : method === "GET" && key === "" && q.get("list-type") === "2"
                ? "ListObjectsV2"
                : method === "GET"
                  ? "GetObject"
                  : method === "HEAD"
                    ? "HeadObject"
                    : method === "POST" && q.has("delete")
                      ? "DeleteObjects"
                      : "Unknown";
  return { bucket, key, op };
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface S3ServerOptions {
  /** faults at random: this share of requests (0 to 1), of these kinds, drawn from `seed` */
  random?: { rate: number; kinds: FaultKind[]; seed: number; only?: (request: RequestInfo) => boolean };
}

export async function s3Server(options: S3ServerOptions = {}) {
  const objects = new Map<string, { body: Buffer; uploaded: number }>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const etag = (body: Buffer) => `"${createHash("md5").update(body).digest("hex")}"`;
  const requests: Recorded[] = [];
  const ranges: string[] = [];
  const rules: FaultRule[] = [];
  const state = { refuse: false, random: options.random };
  let dice = seeded(options.random?.seed ?? 1);
  const sockets = new Set<Socket>();
  let uploadIds = 0;

  const xml = (status: number, text: string): Answer => ({
    status,
    headers: { "Content-Type": "application/xml" },
    body: Buffer.from(text),
  });
  const denied = () => xml(403, "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>");

  /** The answer to a request, applied to the bucket. */
  function handle(method: string, url: URL, headers: IncomingMessage["headers"], body: Buffer): Answer {
    const { bucket, key, op } = classify(method, url);
    if (bucket !== BUCKET) return xml(404, "<Error><Code>NoSuchBucket</Code></Error>");
    const uploadId = url.searchParams.get("uploadId");
    switch (op) {
      case "CreateMultipartUpload": {
        const id = `u${++uploadIds}`;
        uploads.set(id, { key, parts: new Map() });
        return xml(200, `<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      case "UploadPart":
      case "CompleteMultipartUpload":
      case "AbortMultipartUpload": {
        const upload = uploads.get(uploadId!);
        if (!upload || upload.key !== key) return xml(404, "<Error><Code>NoSuchUpload</Code></Error>");
        if (op === "UploadPart") {
          if (state.refuse) return denied();
          upload.parts.set(Number(url.searchParams.get("partNumber")), body);
          return { status: 200, headers: { ETag: etag(body) }, body: Buffer.alloc(0) };
        }
        if (op === "AbortMultipartUpload") {
          uploads.delete(uploadId!);
          return { status: 204, headers: {}, body: Buffer.alloc(0) };
        }
        // The parts named, in order, each with its ETag, every part but the last of one size (R2's rule).
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
        uploads.delete(uploadId!);
        return xml(200, "<CompleteMultipartUploadResult></CompleteMultipartUploadResult>");
      }
      case "PutObject": {
        if (state.refuse) return denied();
        const old = objects.get(key);
        const ifMatch = headers["if-match"];
        if (
          (headers["if-none-match"] === "*" && old) ||
          (ifMatch !== undefined && (!old || etag(old.body) !== ifMatch))
        )
          return xml(412, "<Error><Code>PreconditionFailed</Code></Error>");
        objects.set(key, { body, uploaded: Date.now() });
        return { status: 200, headers: { ETag: etag(body) }, body: Buffer.alloc(0) };
      }
      case "ListObjectsV2": {
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
      case "GetObject":
      case "HeadObject": {
        const object = objects.get(key);
        if (!object) return xml(404, "<Error><Code>NoSuchKey</Code></Error>");
        const size = object.body.byteLength;
        if (op === "HeadObject")
          return {
            status: 200,
            headers: { ETag: etag(object.body), "Content-Length": String(size) },
            body: Buffer.alloc(0),
          };
        const range = /^bytes=(\d*)-(\d*)$/.exec(headers.range ?? "");
        if (!range) return { status: 200, headers: { ETag: etag(object.body) }, body: object.body };
        const [from, to] = range[1] === "" ? [size - Number(range[2]), size - 1] : [Number(range[1]), Number(range[2])];
        ranges.push(headers.range!);
        return {
          status: 206,
          headers: { ETag: etag(object.body), "Content-Range": `bytes ${from}-${to}/${size}` },
          body: object.body.subarray(Math.max(0, from), to + 1),
        };
      }
      case "DeleteObjects": {
        if (headers["content-md5"] !== createHash("md5").update(body).digest("base64"))
          return xml(400, "<Error><Code>InvalidDigest</Code></Error>");
        for (const [, k] of body.toString("utf8").matchAll(/<Key>([^<]*)<\/Key>/g))
          objects.delete(k!.replace(/&amp;/g, "&").replace(/&lt;/g, "<"));
        return xml(200, "<DeleteResult></DeleteResult>");
      }
      default:
        return xml(400, "<Error><Code>NotImplemented</Code></Error>");
    }
  }

  /** The fault for this request: the first matching rule with times left, else the dice. */
  function faultFor(info: RequestInfo): { kind: FaultKind; status: number } | null {
    for (const rule of rules) {
      if ((rule.times ?? 1) <= 0 || !rule.match(info)) continue;
      rule.times = (rule.times ?? 1) - 1;
      return { kind: rule.fault, status: rule.status ?? 503 };
    }
    const random = state.random;
    if (!random || (random.only && !random.only(info))) return null;
    if (dice() >= random.rate) return null;
    const kind = random.kinds[Math.floor(dice() * random.kinds.length)]!;
    return { kind, status: [500, 503, 429][Math.floor(dice() * 3)]! };
  }

  const send = (res: ServerResponse, answer: Answer) => res.writeHead(answer.status, answer.headers).end(answer.body);

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    const { key, op } = classify(req.method!, url);
    const fault = faultFor({ method: req.method!, op, key, headers: req.headers });
    const record = (body: Buffer) =>
      requests.push({
        method: req.method!,
        url: req.url!,
        op,
        key,
        headers: req.headers,
        body,
        badSignature: checkSignature(req),
        fault: fault?.kind ?? null,
      });
    const chunks: Buffer[] = [];
    let received = 0;
    const expected = Number(req.headers["content-length"] ?? 0);
    if (fault?.kind === "reset" && expected === 0) {
      record(Buffer.alloc(0));
      req.socket.destroy();
      return;
    }
    req.on("data", (c: Buffer) => {
      chunks.push(c);
      received += c.byteLength;
      if (fault?.kind === "reset" && received >= expected / 2 && !req.socket.destroyed) {
        record(Buffer.concat(chunks));
        req.socket.destroy();
      }
    });
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      record(body);
      if (!fault) return send(res, handle(req.method!, url, req.headers, body));
      switch (fault.kind) {
        case "status": {
          const code = fault.status === 500 ? "InternalError" : "SlowDown";
          const answer = xml(fault.status, `<Error><Code>${code}</Code><Message>Please try again.</Message></Error>`);
          if (fault.status === 429) answer.headers["Retry-After"] = "0";
          return send(res, answer);
        }
        case "stall":
          return; // the socket stays open and silent
        case "lose":
          handle(req.method!, url, req.headers, body);
          return req.socket.destroy();
        case "cut":
        case "stall-answer": {
          const answer = handle(req.method!, url, req.headers, body);
          if (answer.body.byteLength === 0 || req.method === "HEAD") return req.socket.destroy();
          res.writeHead(answer.status, { ...answer.headers, "Content-Length": String(answer.body.byteLength) });
          res.write(answer.body.subarray(0, Math.floor(answer.body.byteLength / 2)));
          if (fault.kind === "cut") setTimeout(() => req.socket.destroy(), 5);
          return;
        }
        case "reset":
          return req.socket.destroy();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    objects,
    uploads,
    requests,
    ranges,
    state,
    /** adds a rule: the next `times` requests it matches get `fault` */
    inject(rule: FaultRule) {
      rules.push({ times: 1, ...rule });
    },
    /** no more faults; the dice start again from `seed` */
    heal(seed = options.random?.seed ?? 1) {
      rules.length = 0;
      state.random = undefined;
      dice = seeded(seed);
    },
    /** faults at random from now on */
    shake(random: NonNullable<S3ServerOptions["random"]>) {
      state.random = random;
      dice = seeded(random.seed);
    },
    /** the objects' bodies, by key (a copy) */
    snapshot: () => new Map([...objects].map(([k, o]) => [k, Buffer.from(o.body)])),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((ok) => server.close(ok));
    },
  };
}

export type S3Server = Awaited<ReturnType<typeof s3Server>>;
