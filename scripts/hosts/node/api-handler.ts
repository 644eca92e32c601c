// The request handler over one published build (one generation folder): maps each request to a file and status
// through the route table, never computes a body. Everything it caches (bodies, ETags, misses, resolutions, header
// lists) belongs to that one build, so a new publication replaces the whole handler at once (follow-dist.ts).
import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { loadRouteTable } from "../../api/load-route-table.ts";
import { ENCODINGS } from "../../io/encodings.ts";
import { layout, type ErrorId, type RouteTable } from "../../api/route-table.ts";
import { FileCache, FilesUnavailable, type CachedFile } from "./file-cache.ts";
import { createResolver, type Resolution } from "../../api/resolve-request.ts";
import { ResolutionCache } from "./resolution-cache.ts";
import { serverErrors, type PrebuiltResponse } from "./server-errors.ts";

export interface ApiHandler {
  /** the generation folder this handler serves (a real path) */
  root: string;
  table: RouteTable;
  /** answers one request; `retried` is set when another generation handed it over */
  handle(req: IncomingMessage, res: ServerResponse, retried?: boolean): void;
  errorResponse(id: ErrorId): PrebuiltResponse;
  /** JSON answers of the server itself: malformed framing (400), out of file descriptors (503) */
  own: ReturnType<typeof serverErrors>;
}

export interface HandlerOptions {
  /** bytes of bodies and misses kept in memory */
  cacheBytes?: number;
  /** bytes of URL-keyed resolutions kept in memory */
  resolutionBytes?: number;
  /**
   * Called when a lookup missed or a file vanished: resolves with the handler of the build published now, which
   * answers instead when it is another one (a file of a replaced build may be gone: never a 404 for that).
   */
  current?: () => Promise<ApiHandler>;
}

/** One request header by its lower-case name, read from rawHeaders: req.headers would build an object of all. */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/** Whether a request announces a body (Content-Length above 0, or any Transfer-Encoding). */
function hasBody(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 17 && name.toLowerCase() === "transfer-encoding") return true;
    if (name.length === 14 && name.toLowerCase() === "content-length" && raw[i + 1]!.trim() !== "0") return true;
  }
  return false;
}

/** H3: weak comparison over a comma-separated list, `*` matching any current representation. */
export function ifNoneMatchHits(header: string | undefined, etags: string[]): boolean {
  if (header === undefined) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || etags.includes(t.replace(/^W\//, ""));
  });
}

/** The precompressed body the client accepts, preferring brotli; q=0 refuses a coding. */
export function pickEncoding(acceptEncoding: string | undefined, file: CachedFile): CachedFile["encoded"][number] | undefined {
  if (!acceptEncoding || file.encoded.length === 0) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(",")) {
    const [token, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (token && (q === undefined || Number(q) > 0)) accepted.add(token);
  }
  return file.encoded.find((e) => accepted.has(e.name) || (e.name === "gzip" && accepted.has("x-gzip")) || accepted.has("*"));
}

/** A file a request's resolution read, by its name in dist/. */
interface ReadFile {
  name: string;
  file: CachedFile;
}

/** Each coding is its own representation, so its own strong ETag: "hash" → "hash-br". */
const etagFor = (etag: string, coding: string | undefined) => (coding ? `${etag.slice(0, -1)}-${coding}"` : etag);

/** The handler over one generation folder `root` (already resolved to its real path). */
export async function createApiHandler(root: string, options: HandlerOptions = {}): Promise<ApiHandler> {
  const table = await loadRouteTable(root);
  const resolver = createResolver(table);
  // A build with precompressed bodies has them beside openapi.json (always large enough); else none is looked for.
  const openapi = join(root, layout(table.basePath).openapi);
  const compressed = ENCODINGS.some((e) => existsSync(openapi + e.suffix));
  const cache = new FileCache(root, { maxBytes: options.cacheBytes, siblings: compressed });
  const resolved = new ResolutionCache(options.resolutionBytes);
  // Headers as flat [name, value, …] lists, built once: one writeHead per response, no per-header validation calls.
  const common = Object.entries(table.headers.all).flat();
  // A 304 describes no representation, and a docs asset has its own type: neither takes the JSON Content-Type.
  const untyped = Object.entries(table.headers.all)
    .filter(([k]) => k.toLowerCase() !== "content-type")
    .flat();
  const success = Object.entries(table.headers.success).flat();
  const preflight = [...common, ...Object.entries(table.headers.preflight).flat()];
  const own = serverErrors(table);
  // Every error response whole, read once: the handler and the parser-error path answer with the same bytes.
  const errorResponses = new Map<ErrorId, PrebuiltResponse>();
  for (const [id, { status, file }] of Object.entries(table.errors) as [ErrorId, RouteTable["errors"][ErrorId]][]) {
    const cached = await cache.get(file);
    if (!cached) throw new Error(`${join(root, file)} is missing: the build is incomplete`);
    const headers = [...common, ...(status === 405 ? ["Allow", table.methods.join(", ")] : []), "Content-Length", String(cached.body.byteLength)];
    errorResponses.set(id, { status, headers, body: cached.body });
  }

  function send(req: IncomingMessage, res: ServerResponse, status: number, headers: string[], body: Buffer | null) {
    res.writeHead(status, headers);
    res.end(req.method === "HEAD" || !body ? undefined : body);
  }

  const sendPrebuilt = (req: IncomingMessage, res: ServerResponse, e: PrebuiltResponse) => send(req, res, e.status, e.headers, e.body);
  const sendError = (req: IncomingMessage, res: ServerResponse, id: ErrorId) => sendPrebuilt(req, res, errorResponses.get(id)!);
  const failed = (req: IncomingMessage, res: ServerResponse, e: unknown) =>
    e instanceof FilesUnavailable ? sendPrebuilt(req, res, own.unavailable) : sendError(req, res, "not_found");

  function answer(req: IncomingMessage, res: ServerResponse, r: Resolution, file: CachedFile | null) {
    // A body read for this response alone goes back to its pool once the response is handed to the kernel.
    if (file?.release) res.once("finish", file.release);
    if (r.kind === "preflight") {
      return send(req, res, 204, [...preflight, "Access-Control-Allow-Headers", headerOf(req, "access-control-request-headers") || "*"], null);
    }
    if (r.kind === "error") return sendError(req, res, r.id);
    if (!file) return sendError(req, res, "not_found"); // vanished from the published build itself: never a 5xx
    if (!r.success) return send(req, res, r.status, [...common, "Content-Length", String(file.body.byteLength)], file.body);
    const encoded = file.encoded.length > 0 ? pickEncoding(headerOf(req, "accept-encoding"), file) : undefined;
    // Unchanged is unchanged whichever coding the client saw before.
    const inm = headerOf(req, "if-none-match");
    if (inm !== undefined && ifNoneMatchHits(inm, [file.etag, ...file.encoded.map((e) => etagFor(file.etag, e.name))])) {
      return send(req, res, 304, headersFor(file, encoded, r.contentType, true), null);
    }
    return send(req, res, r.status, headersFor(file, encoded, r.contentType, false), encoded?.body ?? file.body);
  }

  // The 200 and 304 headers of each file and coding, built on first use and kept on the file: the hot path allocates
  // nothing, and a file read once and dropped takes its lists with it. A file is always served with the same type (a
  // route's JSON or an asset's), so the slot is coding × status.
  function headersFor(file: CachedFile, encoded: CachedFile["encoded"][number] | undefined, contentType: string | undefined, notModified: boolean) {
    const slots = (file.headers ??= []);
    const slot = (encoded ? 1 + file.encoded.indexOf(encoded) : 0) * 2 + (notModified ? 1 : 0);
    let headers = slots[slot];
    if (!headers) {
      const validators = [...success, "ETag", etagFor(file.etag, encoded?.name), ...(file.encoded.length > 0 ? ["Vary", "Accept-Encoding"] : [])];
      const body = encoded?.body ?? file.body;
      const type = notModified ? untyped : contentType ? [...untyped, "Content-Type", contentType] : common; // a docs asset is not JSON
      const coding = encoded && !notModified ? ["Content-Encoding", encoded.name] : [];
      headers = [...type, ...validators, ...coding, ...(notModified ? [] : ["Content-Length", String(body.byteLength)])];
      slots[slot] = headers;
    }
    return headers;
  }

  /** A lookup missed on disk: when a newer build is published by now, it answers (once) instead. */
  function handOver(req: IncomingMessage, res: ServerResponse, retried: boolean, otherwise: () => void) {
    if (retried || !options.current) return otherwise();
    options.current().then(
      (now) => (now === handler ? otherwise() : now.handle(req, res, true)),
      () => otherwise(),
    );
  }

  /** `read`: the file the resolution already read, when it did (a file read once is not cached: never read it twice). */
  function withFile(req: IncomingMessage, res: ServerResponse, r: Resolution, retried: boolean, read?: ReadFile) {
    if (r.kind !== "file") return answer(req, res, r, null);
    if (read?.name === r.file) return answer(req, res, r, read.file);
    const known = cache.peek(r.file);
    if (known) return answer(req, res, r, known);
    cache.take(r.file).then(
      (f) => (f ? answer(req, res, r, f) : handOver(req, res, retried, () => answer(req, res, r, null))),
      (e) => failed(req, res, e),
    );
  }

  function resolveAndAnswer(req: IncomingMessage, res: ServerResponse, retried: boolean) {
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    // GET and HEAD resolve alike; other methods are cheap to resolve and not worth a cache entry.
    const cacheable = method === "GET" || method === "HEAD";
    const known = cacheable ? resolved.get(target) : undefined;
    if (known) return withFile(req, res, known, retried);
    // Whether a candidate file exists is known by reading it: the answer sends those very bytes.
    let read: ReadFile | undefined;
    const exists = (name: string) => {
      const cached = cache.peek(name);
      if (cached !== undefined) return cached !== null;
      return cache.take(name).then((file) => {
        if (file) read = { name, file };
        return file !== null;
      });
    };
    const fresh = resolver.resolve(method, target, exists);
    if (!(fresh instanceof Promise)) {
      if (cacheable) resolved.set(target, fresh);
      return withFile(req, res, fresh, retried);
    }
    // Resolved through a disk lookup: a fallback answer may only mean this build was replaced meanwhile.
    fresh.then(
      (r) => {
        const settle = () => {
          if (cacheable) resolved.set(target, r);
          withFile(req, res, r, retried, read);
        };
        if (r.kind === "file" && r.success) settle();
        else handOver(req, res, retried, settle);
      },
      (e) => failed(req, res, e),
    );
  }

  const handler: ApiHandler = {
    root,
    table,
    own,
    errorResponse: (id) => errorResponses.get(id)!,
    handle(req, res, retried = false) {
      // A request that announces a body is answered once the body is read, so malformed framing (a bad chunk size)
      // is answered once, by the parser-error path, and never after a response already went out.
      if (!retried && hasBody(req)) {
        req.once("end", () => resolveAndAnswer(req, res, false));
        req.resume();
        return;
      }
      resolveAndAnswer(req, res, retried);
    },
  };
  return handler;
}
