// The Node host: maps each request to a dist/ file and status through the route table, never computes a body.
import { readFile } from "node:fs/promises";
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { ErrorId, RouteTable } from "../render/route-table.ts";
import { FileCache, type CachedFile } from "./file-cache.ts";
import { createResolver, type Resolution } from "./resolve-request.ts";

export interface ServerOptions {
  distDir: string;
  port?: number;
  host?: string;
}

export interface RunningServer {
  /** origin, e.g. http://127.0.0.1:3000 */
  url: string;
  basePath: string;
  close(): Promise<void>;
}

interface ErrorResponse {
  status: number;
  /** flat [name, value, …] */
  headers: string[];
  body: Buffer;
}

/** One request header by its lower-case name, read from rawHeaders: req.headers would build an object of all. */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
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

/** Each coding is its own representation, so its own strong ETag: "hash" → "hash-br". */
const etagFor = (etag: string, coding: string | undefined) => (coding ? `${etag.slice(0, -1)}-${coding}"` : etag);

export async function loadRouteTable(distDir: string): Promise<RouteTable> {
  try {
    return JSON.parse(await readFile(join(distDir, "routes.json"), "utf8")) as RouteTable;
  } catch (e) {
    throw new Error(`${join(distDir, "routes.json")} is missing or unreadable: run \`npm run build\` first (${(e as Error).message})`);
  }
}

/** The request handler over one dist/, and the table it serves. */
export async function createApiHandler(distDir: string) {
  const table = await loadRouteTable(distDir);
  const resolver = createResolver(table);
  const cache = new FileCache(distDir);
  const exists = (file: string) => {
    const known = cache.peek(file);
    return known === undefined ? cache.get(file).then((f) => f !== null) : known !== null;
  };
  // Headers as flat [name, value, …] lists, built once: one writeHead per response, no per-header validation calls.
  const common = Object.entries(table.headers.all).flat();
  // A 304 describes no representation, and a docs asset has its own type: neither takes the JSON Content-Type.
  const untyped = Object.entries(table.headers.all)
    .filter(([k]) => k.toLowerCase() !== "content-type")
    .flat();
  const success = Object.entries(table.headers.success).flat();
  const preflight = [...common, ...Object.entries(table.headers.preflight).flat()];
  // Every error response whole, read once: the handler and the parser-error path answer with the same bytes.
  const errorResponses = new Map<ErrorId, ErrorResponse>();
  for (const [id, { status, file }] of Object.entries(table.errors) as [ErrorId, RouteTable["errors"][ErrorId]][]) {
    const cached = await cache.get(file);
    if (!cached) throw new Error(`${join(distDir, file)} is missing: the build is incomplete`);
    const headers = [...common, ...(status === 405 ? ["Allow", table.methods.join(", ")] : []), "Content-Length", String(cached.body.byteLength)];
    errorResponses.set(id, { status, headers, body: cached.body });
  }

  function send(req: IncomingMessage, res: ServerResponse, status: number, headers: string[], body: Buffer | null) {
    res.writeHead(status, headers);
    res.end(req.method === "HEAD" || !body ? undefined : body);
  }

  function sendError(req: IncomingMessage, res: ServerResponse, id: ErrorId) {
    const e = errorResponses.get(id)!;
    send(req, res, e.status, e.headers, e.body);
  }

  function answer(req: IncomingMessage, res: ServerResponse, r: Resolution, file: CachedFile | null) {
    if (r.kind === "preflight") {
      return send(req, res, 204, [...preflight, "Access-Control-Allow-Headers", headerOf(req, "access-control-request-headers") || "*"], null);
    }
    if (r.kind === "error") return sendError(req, res, r.id);
    if (!file) return sendError(req, res, "not_found"); // vanished under us: never a 5xx
    if (!r.success) return send(req, res, r.status, [...common, "Content-Length", String(file.body.byteLength)], file.body);
    const encoded = file.encoded.length > 0 ? pickEncoding(headerOf(req, "accept-encoding"), file) : undefined;
    // Unchanged is unchanged whichever coding the client saw before.
    const inm = headerOf(req, "if-none-match");
    if (inm !== undefined && ifNoneMatchHits(inm, [file.etag, ...file.encoded.map((e) => etagFor(file.etag, e.name))])) {
      return send(req, res, 304, headersFor(file, encoded, r.contentType, true), null);
    }
    return send(req, res, r.status, headersFor(file, encoded, r.contentType, false), encoded?.body ?? file.body);
  }

  // The 200 and 304 headers of each file and coding, built on first use: the hot path allocates nothing.
  // A file is always served with the same type (a route's JSON or an asset's), so the slot is coding × status.
  const headerCache = new WeakMap<CachedFile, string[][]>();
  function headersFor(file: CachedFile, encoded: CachedFile["encoded"][number] | undefined, contentType: string | undefined, notModified: boolean) {
    let slots = headerCache.get(file);
    if (!slots) headerCache.set(file, (slots = []));
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

  // dist/ does not change under a running server, so a request target always resolves the same way.
  const resolved = new Map<string, Resolution>();
  const MAX_RESOLVED = 50_000;
  const remember = (key: string, r: Resolution) => {
    if (resolved.size >= MAX_RESOLVED) resolved.clear();
    resolved.set(key, r);
    return r;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    // GET and HEAD resolve alike; other methods are cheap to resolve and not worth a cache entry.
    const key = method === "GET" || method === "HEAD" ? target : undefined;
    const known = key === undefined ? undefined : resolved.get(key);
    const fresh = known ?? resolver.resolve(method, target, exists);
    const resolution = known || key === undefined ? fresh : fresh instanceof Promise ? fresh.then((r) => remember(key, r)) : remember(key, fresh);
    const withFile = (r: Resolution) => {
      if (r.kind !== "file") return answer(req, res, r, null);
      const known = cache.peek(r.file);
      if (known !== undefined) return answer(req, res, r, known);
      cache.get(r.file).then((f) => answer(req, res, r, f), () => answer(req, res, r, null));
    };
    if (resolution instanceof Promise) resolution.then(withFile, () => sendError(req, res, "not_found"));
    else withFile(resolution);
  };
  return { handle, table, errorResponse: (id: ErrorId) => errorResponses.get(id)! };
}

export async function startServer({ distDir, port = 3000, host = "127.0.0.1" }: ServerOptions): Promise<RunningServer> {
  const { handle, table, errorResponse } = await createApiHandler(distDir);
  // Without a Host header Node would answer a bare 400 itself; the route table answers instead.
  const server = createServer({ keepAliveTimeout: 5_000, requireHostHeader: false }, handle);
  // Malformed or oversized requests get a JSON error body, never Node's bare 400/431.
  // Node's parser rejects unknown method tokens (FOO, get) before the handler: they are still P6's 405.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === "ECONNRESET") return socket.destroy();
    const { status, headers, body } = errorResponse(err.code === "HPE_INVALID_METHOD" ? "method_not_allowed" : "not_found");
    const isHead = (err as { rawPacket?: Buffer }).rawPacket?.toString("latin1", 0, 5) === "HEAD "; // P4: no body
    const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`];
    for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`);
    const head = [...lines, "Connection: close", "", ""].join("\r\n");
    socket.end(isHead ? head : Buffer.concat([Buffer.from(head), body]));
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolveListen();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    basePath: table.basePath,
    close: () =>
      new Promise((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
