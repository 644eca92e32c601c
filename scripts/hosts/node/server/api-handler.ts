// The request handler over one published build (one generation folder). It reads files and writes bytes; what a
// request is answered with is decided by api/: the resolver (route table) and the answer policy (status, headers,
// 304, codings). Everything it caches (bodies, ETags, misses, resolutions, header lists) belongs to that one build,
// so a new publication replaces the whole handler at once (follow-dist.ts).
//
// A request, top to bottom: handle (a body is read first) → resolveAndAnswer (cached decision, else the resolver with
// a probe that asks the build's index, then the file cache) → withFile (the decision's file, when the resolution did
// not bring it) → answer (the policy's plan, then send). What exists is the build's index's to say (build-index.ts):
// a body it names that cannot be read whole is a storage fault, answered 503 and never remembered (H7), unless a
// newer build was published meanwhile (this one's files may be gone): handOver lets that build answer.
//
// Both layouts of a build are served alike (L2): a list page of a runs build is its run's slice in the page envelope,
// read by the file cache under the page's path (run-pages.ts), with the same ETag, headers and codings as the page
// file of a pages build. The index and the runs are this handler's generation's, so a page never mixes two builds.
import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { loadRouteTable } from "../../../api/load-route-table.ts";
import {
  type AnswerHeaders,
  answerHeaders,
  type Plan,
  planAnswer,
  sendsBody,
} from "../../../api/runtime/answer-policy.ts";
import type { BuildIndex } from "../../../api/runtime/build-index.ts";
import { StorageFault } from "../../../api/runtime/build-index.ts";
import {
  createResolver,
  type Decision,
  decisionOf,
  type Resolution,
  type Resolver,
} from "../../../api/runtime/resolve-request.ts";
import {
  CODINGS,
  type ErrorId,
  HOST_ERROR_STATUS,
  type HostErrorId,
  hostErrorFile,
  layout,
  type RouteTable,
} from "../../../api/runtime/route-table.ts";
import { readBuildIndex } from "../../../io/read-build-index.ts";
import { type CachedFile, FileCache, FilesUnavailable } from "./file-cache.ts";
import { ResolutionCache } from "./resolution-cache.ts";

/** A whole response prepared once: status, flat [name, value, …] headers, body. */
export interface PrebuiltResponse {
  status: number;
  headers: string[];
  body: Buffer;
}

export interface ApiHandler {
  /** the generation folder this handler serves (a real path) */
  root: string;
  table: RouteTable;
  /** answers one request; `retried` is set when another generation handed it over */
  handle(req: IncomingMessage, res: ServerResponse, retried?: boolean): void;
  /** an error response whole: the route table's, and the server's own (bad_request, service_unavailable) */
  errorResponse(id: ErrorId | HostErrorId): PrebuiltResponse;
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

/** One build as the handler serves it. */
interface Served {
  handler: ApiHandler;
  index: BuildIndex;
  resolver: Resolver;
  cache: FileCache;
  resolved: ResolutionCache;
  headers: AnswerHeaders;
  errors: Map<ErrorId | HostErrorId, PrebuiltResponse>;
  current?: () => Promise<ApiHandler>;
}

/** The handler over one generation folder `root` (already resolved to its real path). */
export async function createApiHandler(root: string, options: HandlerOptions = {}): Promise<ApiHandler> {
  const table = await loadRouteTable(root);
  const paths = layout(table.basePath);
  const index = readBuildIndex(root, paths.page);
  // A build with precompressed bodies has them beside openapi.json (always large enough); else none is looked for,
  // and a page from a run is offered in no coding either.
  const openapi = join(root, paths.openapi);
  const cache = new FileCache(root, {
    maxBytes: options.cacheBytes,
    siblings: CODINGS.some((c) => existsSync(openapi + c.suffix)),
    runs: index.layout === "runs" ? index : undefined,
  });
  const headers = answerHeaders(table);
  const errors = await readErrorResponses(root, table, index, cache, headers);
  const handler: ApiHandler = {
    root,
    table,
    errorResponse: (id) => errors.get(id)!,
    handle: (req, res, retried = false) => handle(served, req, res, retried),
  };
  const served: Served = {
    handler,
    index,
    resolver: createResolver(table),
    cache,
    resolved: new ResolutionCache(options.resolutionBytes),
    headers,
    errors,
    current: options.current,
  };
  return handler;
}

/** Every error response whole, read once: the handler and the parser-error path answer with the same bytes. */
async function readErrorResponses(
  root: string,
  table: RouteTable,
  index: BuildIndex,
  cache: FileCache,
  headers: AnswerHeaders,
) {
  const files: [ErrorId | HostErrorId, string][] = [
    ...(Object.entries(table.errors) as [ErrorId, { file: string }][]).map(([id, e]): [ErrorId, string] => [
      id,
      e.file,
    ]),
    ...(Object.keys(HOST_ERROR_STATUS) as HostErrorId[]).map((id): [HostErrorId, string] => [
      id,
      hostErrorFile(table, id),
    ]),
  ];
  const errors = new Map<ErrorId | HostErrorId, PrebuiltResponse>();
  for (const [id, file] of files) {
    const size = index.sizeOf(file);
    if (size === undefined) throw new Error(`${join(root, file)} is missing: the build is incomplete`);
    const cached = await cache.get(file, size);
    const { status, headers: pairs } = headers.error(id, cached.body.byteLength);
    errors.set(id, { status, headers: pairs.flat(), body: cached.body });
  }
  return errors;
}

/** A request that announces a body is answered once the body is read, so malformed framing (a bad chunk size) is
 *  answered once, by the parser-error path, and never after a response already went out. */
function handle(s: Served, req: IncomingMessage, res: ServerResponse, retried: boolean): void {
  if (!retried && hasBody(req)) {
    req.once("end", () => resolveAndAnswer(s, req, res, false));
    req.resume();
    return;
  }
  resolveAndAnswer(s, req, res, retried);
}

/** The decision (remembered by target for GET and HEAD), then the answer. */
function resolveAndAnswer(s: Served, req: IncomingMessage, res: ServerResponse, retried: boolean): void {
  const method = req.method ?? "GET";
  const target = req.url ?? "/";
  // GET and HEAD resolve alike; other methods are cheap to resolve and not worth a cache entry.
  const cacheable = method === "GET" || method === "HEAD";
  const known = cacheable ? s.resolved.get(target) : undefined;
  if (known) return withFile(s, req, res, known, retried);
  const remember = (r: Resolution<CachedFile>) => {
    if (cacheable) s.resolved.set(target, decisionOf(r));
  };
  // The index says whether the build has the file (no disk lookup for one it has not); the probe reads the file it
  // names, and the answer sends those very bytes.
  const fresh = s.resolver.resolve(method, target, (file) => {
    const size = s.index.sizeOf(file);
    if (size === undefined) return null;
    return s.cache.peek(file) ?? s.cache.take(file, size);
  });
  if (!(fresh instanceof Promise)) {
    remember(fresh);
    return answer(s, req, res, fresh, fresh.kind === "file" ? fresh.found : null);
  }
  fresh.then(
    (r) => {
      remember(r);
      answer(s, req, res, r, r.kind === "file" ? r.found : null);
    },
    (e) => failed(s, req, res, e, retried),
  );
}

/** A remembered decision: its file from the cache, or read now. */
function withFile(s: Served, req: IncomingMessage, res: ServerResponse, decision: Decision, retried: boolean): void {
  if (decision.kind !== "file") return answer(s, req, res, decision, null);
  const known = s.cache.peek(decision.file);
  if (known) return answer(s, req, res, decision, known);
  s.cache.take(decision.file, s.index.sizeOf(decision.file)!).then(
    (f) => answer(s, req, res, decision, f),
    (e) => failed(s, req, res, e, retried),
  );
}

/** The policy's plan for this request, sent. */
function answer(
  s: Served,
  req: IncomingMessage,
  res: ServerResponse,
  decision: Decision,
  file: CachedFile | null,
): void {
  // A body read for this response alone goes back to its pool once the response is handed to the kernel.
  if (file?.release) res.once("finish", file.release);
  const plan = planAnswer(decision, file, {
    ifNoneMatch: headerOf(req, "if-none-match"),
    acceptEncoding: file?.codings.length ? headerOf(req, "accept-encoding") : undefined,
  });
  switch (plan.kind) {
    case "preflight":
      return send(req, res, 204, s.headers.preflight(headerOf(req, "access-control-request-headers")).flat(), null);
    case "error":
      return sendPrebuilt(req, res, s.errors.get(plan.id)!);
    case "file": {
      const f = file!;
      const path = decision.kind === "file" ? decision.file : "";
      if (plan.status !== 200 && plan.status !== 304)
        return send(req, res, plan.status, s.headers.errorFile(f.body.byteLength).flat(), f.body);
      // A 304 sends no body: a page from a run is compressed only for an answer that carries it (or its length).
      const body = plan.coding && !plan.notModified ? s.cache.coded(path, f, plan.coding) : f.body;
      const contentType = decision.kind === "file" ? decision.contentType : undefined;
      return send(req, res, plan.status, headersFor(s.headers, f, plan, body.byteLength, contentType), body);
    }
  }
}

/**
 * The 200 and 304 headers of each file and coding, built on first use and kept on the file: the hot path allocates
 * nothing, and a file read once and dropped takes its lists with it. A file is always served with the same type (a
 * route's JSON or an asset's), so the slot is coding × status.
 */
function headersFor(
  headers: AnswerHeaders,
  file: CachedFile,
  plan: Extract<Plan, { kind: "file" }>,
  length: number,
  contentType?: string,
): string[] {
  const slots = (file.headers ??= []);
  const slot = (plan.coding ? 1 + file.codings.indexOf(plan.coding) : 0) * 2 + (plan.notModified ? 1 : 0);
  return (slots[slot] ??= headers.success(file, plan, length, contentType).flat());
}

/**
 * A body this build names could not be read whole. When a newer build is published by now, it answers (once)
 * instead: this one's files may have been removed with it. Else 503 with Retry-After and no-store, one log line
 * naming the request, the file and the cause; nothing is remembered, so the next request reads again (H7).
 */
function failed(s: Served, req: IncomingMessage, res: ServerResponse, e: unknown, retried: boolean): void {
  const unavailable = () => {
    const cause = e instanceof StorageFault || e instanceof FilesUnavailable ? e.message : String(e);
    console.error(`${req.method} ${(req.url ?? "").slice(0, 200)}: answered 503: ${cause.slice(0, 300)}`);
    sendPrebuilt(req, res, s.errors.get("service_unavailable")!);
  };
  if (retried || !s.current) return unavailable();
  s.current().then(
    (now) => (now === s.handler ? unavailable() : now.handle(req, res, true)),
    () => unavailable(),
  );
}

const sendPrebuilt = (req: IncomingMessage, res: ServerResponse, r: PrebuiltResponse) =>
  send(req, res, r.status, r.headers, r.body);

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: string[], body: Buffer | null): void {
  res.writeHead(status, headers);
  res.end(body && sendsBody(req.method ?? "GET", status) ? body : undefined);
}

/** One request header by its lower-case name, read from rawHeaders: req.headers would build an object of all. */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) return raw[i + 1];
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
