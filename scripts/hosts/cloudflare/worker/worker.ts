// The Cloudflare Worker: every request goes through the same resolver and answer policy as the Node server (api/);
// the Worker only reads the resolved file from Workers Static Assets (binding ASSETS) or from the live build in R2
// (binding BUCKET, r2-builds.ts: one build per request, named by X-Catalog-Build) and writes the answer. /mcp is
// answered before that (mcp.ts), by MCP tools that ask this same fetch. Bundled with the table by
// scripts/hosts/cloudflare/adapter.ts.
// Runs in workerd: Web APIs only, no node: imports.
import {
  answerHeaders,
  type FileFacts,
  type HeaderPairs,
  planAnswer,
  sendsBody,
} from "../../../api/runtime/answer-policy.ts";
import { StorageFault } from "../../../api/runtime/build-index.ts";
import { createResolver } from "../../../api/runtime/resolve-request.ts";
import { type ErrorId, type HostErrorId, layout, type RouteTable } from "../../../api/runtime/route-table.ts";
import { isMcpTarget } from "../../../mcp/endpoint.ts";
import { type CacheLike, countedReads, gunzip, type R2Reads, r2Builds } from "./r2-builds.ts";
import { assetsStore, type Body, type Env, type FileMeta, type FileStore, type Read } from "./stores.ts";

export type { Env } from "./stores.ts";

/** Thrown by a request's first file lookup when the bucket has no live build: answered 503. */
const NO_LIVE_BUILD = new Error("no live build");

/** What the isolate learnt of an immutable file: enough to answer HEAD and 304 without reading it again. */
const MAX_KNOWN = 20_000;

export interface ExecutionContextLike {
  waitUntil(promise: Promise<unknown>): void;
}

export interface WorkerModule {
  fetch(request: Request, env: Env, ctx?: ExecutionContextLike): Promise<Response>;
}

/**
 * The client's own Accept-Encoding. Cloudflare's front line (and workerd under Miniflare) hands the Worker its own
 * `Accept-Encoding: br, gzip` and keeps the client's header in `request.cf.clientAcceptEncoding` ("" when the client
 * sent none); a gzip answer chosen from the replaced header reaches a client that never asked for it as gzip bytes.
 */
export function clientAcceptEncoding(request: Request): string | null {
  const cf = (request as { cf?: { clientAcceptEncoding?: unknown } }).cf;
  if (typeof cf?.clientAcceptEncoding === "string") return cf.clientAcceptEncoding || null;
  return request.headers.get("accept-encoding");
}

/** The edge cache, where the runtime has one (workerd's `caches.default`). */
const edgeCache = (): CacheLike | undefined => (globalThis as { caches?: { default?: CacheLike } }).caches?.default;

/** The Worker's module for one route table and its error bodies (by error id, as the build writes them); `version`:
 *  the package's, which its MCP server reports. */
export function createWorker(
  table: RouteTable,
  errorBodies: Record<ErrorId | HostErrorId, string>,
  version = "0.0.0",
): WorkerModule {
  const resolver = createResolver(table);
  const headers = answerHeaders(table);
  const errors = new Map(
    ([...Object.keys(table.errors), "service_unavailable"] as (ErrorId | HostErrorId)[]).map((id) => {
      const body = new TextEncoder().encode(errorBodies[id]);
      return [id, { ...headers.error(id, body.byteLength), body }] as const;
    }),
  );
  const { page: pageTemplate, syncPiece: pieceTemplate } = layout(table.basePath);
  const builds = r2Builds(pageTemplate);
  // One store per isolate: it keeps the build's index once read.
  let assets: FileStore | undefined;
  const known = new Map<string, FileMeta>();
  const remember = (file: string, meta: FileMeta) => {
    if (known.size >= MAX_KNOWN) known.clear();
    known.set(file, meta);
  };

  // HEAD: the same headers with no body (workerd keeps the Content-Length we set). `encoded`: the body is sent as it
  // is stored, already gzip-compressed (workerd's encodeBody "manual": no compression on the way out).
  const respond = (
    method: string,
    status: number,
    headerList: HeaderPairs,
    body: Body | Uint8Array | null,
    encoded = false,
  ) =>
    new Response(sendsBody(method, status) ? body : null, {
      status,
      headers: headerList,
      ...(encoded ? { encodeBody: "manual" } : {}),
    } as ResponseInit);

  function error(method: string, id: ErrorId | HostErrorId): Response {
    const e = errors.get(id)!;
    return respond(method, e.status, e.headers, e.body);
  }

  /** A file's metadata and, when this request needs it, its body: read once. Known files of an immutable store are
   *  not asked for their metadata again. */
  async function lookup(store: FileStore, file: string, wantBody: boolean): Promise<Read | null> {
    const meta = store.immutable ? known.get(file) : undefined;
    if (meta) {
      if (!wantBody) return { meta, body: null };
      const body = await store.body(file);
      return body && { meta, body };
    }
    const read = await store.read(file, wantBody);
    if (read && store.immutable) remember(file, read.meta);
    return read;
  }

  const api: WorkerModule = {
    async fetch(request, env, ctx) {
      const method = request.method;
      // In R2 mode every answer says which build it came from, and (COUNT_R2_READS) what it read.
      let build: string | undefined;
      let reads: (() => R2Reads) | undefined;
      const answer = (response: Response) => {
        if (build !== undefined) response.headers.set("X-Catalog-Build", build);
        if (env.COUNT_R2_READS === "1") countedReads(response.headers, reads?.());
        return response;
      };
      try {
        // R2: the live build is looked up when the resolver first needs a file, so an error the route decides (a
        // bad query, an unknown path) reads nothing and names no build: it is the same in every build.
        if (!env.BUCKET && !env.ASSETS)
          throw new Error("the Worker has neither an ASSETS nor a BUCKET binding: check wrangler.jsonc");
        let store: FileStore | null = env.BUCKET
          ? null
          : (assets ??= assetsStore(env.ASSETS!, pageTemplate, pieceTemplate));
        const liveStore = async (bucket: NonNullable<Env["BUCKET"]>): Promise<FileStore> => {
          const view = await builds.view(bucket, edgeCache(), (p) => ctx?.waitUntil(p));
          reads = view.reads;
          if (view.build === null) throw NO_LIVE_BUILD;
          build = view.build;
          return view;
        };
        const ifNoneMatch = request.headers.get("if-none-match");
        const wantBody = method === "GET" && ifNoneMatch === null;
        // Only the path and query matter; the resolver takes an absolute-form target as it is.
        const r = await resolver.resolve(method, request.url, async (file) => {
          store ??= await liveStore(env.BUCKET!);
          return lookup(store, file, wantBody);
        });
        // An R2 body is stored gzip-compressed: a representation of its own (its ETag, Vary) by the answer policy.
        const stored = r.kind === "file" && r.found.meta.gzipLength !== undefined;
        const facts: FileFacts | null =
          r.kind === "file" ? { etag: r.found.meta.etag, codings: stored ? ["gzip"] : [] } : null;
        const plan = planAnswer(r, facts, { ifNoneMatch, acceptEncoding: clientAcceptEncoding(request) });
        if (plan.kind === "preflight")
          return answer(
            respond(method, 204, headers.preflight(request.headers.get("access-control-request-headers")), null),
          );
        if (plan.kind === "error" || r.kind !== "file")
          return answer(error(method, plan.kind === "error" ? plan.id : "not_found"));
        const { meta } = r.found;
        if (plan.notModified) return answer(respond(method, 304, headers.success(facts!, plan, 0), null));
        const gzip = plan.coding === "gzip";
        const length = gzip ? meta.gzipLength! : meta.size;
        // The body when it is sent: read with the metadata, or now (a HEAD needs none); decoded here only for a
        // client that does not take it as stored.
        let body = method === "HEAD" ? null : (r.found.body ?? (await store!.body(r.file)));
        if (body && stored && !gzip) body = await gunzip(body as ArrayBuffer);
        if (plan.status !== 200) return answer(respond(method, plan.status, headers.errorFile(length), body));
        // As stored, no Content-Length, as the edge sends what it compresses itself: a client reads the length it
        // decodes from the body, not from a header that counts the coded bytes (a HEAD included).
        const success = headers.success(facts!, plan, length, r.contentType);
        const sent = gzip ? success.filter(([name]) => name !== "Content-Length") : success;
        return answer(respond(method, plan.status, sent, body, gzip));
      } catch (e) {
        // Nothing is live yet (the first upload has not switched), or the storage cannot give a body the build names
        // (or failed otherwise): the contract's 503, never a false 404 (H7). Logged, one line, but for the first.
        if (e !== NO_LIVE_BUILD) {
          const cause = e instanceof StorageFault ? e.message : `${(e as Error).message}`;
          console.error(`${method} ${request.url.slice(0, 200)}: answered 503: ${cause.slice(0, 300)}`);
        }
        return answer(error(method, "service_unavailable"));
      }
    },
  };
  // MCP (M4), outside the base path (P9): answered before the API, which its tools ask in turn. Its module (the SDK
  // and zod) is evaluated on the first request to /mcp, not at every isolate's start.
  let mcp: Promise<ReturnType<typeof import("./mcp.ts").workerMcp>> | undefined;
  const answerMcp: WorkerModule["fetch"] = async (request, env, ctx) => {
    mcp ??= import("./mcp.ts").then(({ workerMcp }) =>
      workerMcp({ basePath: table.basePath, version, api: api.fetch, builds, cache: edgeCache }),
    );
    return (await mcp)(request, env, ctx);
  };
  return {
    fetch: (request, env, ctx) =>
      isMcpTarget(request.url) ? answerMcp(request, env, ctx) : api.fetch(request, env, ctx),
  };
}
