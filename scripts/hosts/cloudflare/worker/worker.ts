// The Cloudflare Worker: every request goes through the same resolver as the Node server (resolve-request.ts);
// the Worker only reads the resolved file from Workers Static Assets (binding ASSETS) or from R2 (binding BUCKET)
// and answers with the route table's status and headers. Bundled with the table by scripts/hosts/cloudflare/adapter.ts.
// Runs in workerd: Web APIs only, no node: imports.
import type { ErrorId, RouteTable } from "../../../api/route-table.ts";
import { createResolver, type Resolution } from "../../../api/resolve-request.ts";
import { storeFor, type Env, type FileMeta, type FileStore, type Read } from "./stores.ts";

export type { Env } from "./stores.ts";

/** H3: weak comparison over a comma-separated list, `*` matching any current representation (as the Node server). */
export function ifNoneMatchHits(header: string | null, etags: string[]): boolean {
  if (header === null) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || etags.includes(t.replace(/^W\//, ""));
  });
}

/** What the isolate learnt of an immutable file: enough to answer HEAD and 304 without reading it again. */
const MAX_KNOWN = 20_000;

export interface WorkerModule {
  fetch(request: Request, env: Env): Promise<Response>;
}

/** The Worker's module for one route table and its error bodies (by error id, as the build writes them). */
export function createWorker(table: RouteTable, errorBodies: Record<ErrorId, string>): WorkerModule {
  const resolver = createResolver(table);
  const all = Object.entries(table.headers.all);
  const untyped = all.filter(([k]) => k.toLowerCase() !== "content-type");
  const success = Object.entries(table.headers.success);
  const preflight = [...all, ...Object.entries(table.headers.preflight)];
  const allow = table.methods.join(", ");
  const known = new Map<string, FileMeta>();
  const remember = (file: string, meta: FileMeta) => {
    if (known.size >= MAX_KNOWN) known.clear();
    known.set(file, meta);
  };

  // HEAD: the same headers with no body (workerd keeps the Content-Length we set).
  const respond = (method: string, status: number, headers: [string, string][], body: string | ArrayBuffer | null) =>
    new Response(method === "HEAD" ? null : body, { status, headers });

  const length = (body: ArrayBuffer | string) => String(typeof body === "string" ? new TextEncoder().encode(body).byteLength : body.byteLength);

  function error(method: string, id: ErrorId): Response {
    const { status } = table.errors[id];
    const body = errorBodies[id];
    const headers: [string, string][] = [...all, ...(status === 405 ? [["Allow", allow] as [string, string]] : []), ["Content-Length", length(body)]];
    return respond(method, status, headers, body);
  }

  async function file(request: Request, store: FileStore, r: Extract<Resolution, { kind: "file" }>, read: Read | undefined, wantBody: boolean): Promise<Response> {
    const method = request.method;
    // Docs assets resolve without an existence check: read them here.
    if (!read && !(store.immutable && known.has(r.file))) {
      read = (await store.read(r.file, wantBody)) ?? undefined;
      if (read && store.immutable) remember(r.file, read.meta);
    }
    if (!r.success) {
      const body = read?.body ?? (await store.body(r.file));
      return body ? respond(method, r.status, [...all, ["Content-Length", length(body)]], body) : error(method, "not_found");
    }
    const meta = read?.meta ?? known.get(r.file);
    if (!meta) return error(method, "not_found"); // vanished under us: never a 5xx
    const validators: [string, string][] = [...success, ["ETag", meta.etag]];
    if (ifNoneMatchHits(request.headers.get("if-none-match"), [meta.etag])) return respond(method, 304, [...untyped, ...validators], null);
    const body = method === "HEAD" ? null : (read?.body ?? (await store.body(r.file)));
    if (method !== "HEAD" && body === null) return error(method, "not_found");
    const type: [string, string][] = r.contentType ? [...untyped, ["Content-Type", r.contentType]] : all; // a docs asset is not JSON
    return respond(method, r.status, [...type, ...validators, ["Content-Length", String(meta.size)]], body);
  }

  return {
    async fetch(request, env) {
      const method = request.method;
      try {
        const store = storeFor(env);
        // A file's metadata (and, when this request needs it, its body) is read once: the existence check
        // of the resolver reads it, the answer uses it. Known files answer HEAD and 304 with no read at all.
        const wantBody = method === "GET" && request.headers.get("if-none-match") === null;
        const reads = new Map<string, Read | null>();
        const exists = async (f: string) => {
          const meta = store.immutable ? known.get(f) : undefined;
          if (meta) {
            // Known: the body alone, without hashing it again.
            if (!wantBody) return true;
            const body = await store.body(f);
            reads.set(f, body && { meta, body });
            return body !== null;
          }
          const read = await store.read(f, wantBody);
          reads.set(f, read);
          if (read && store.immutable) remember(f, read.meta);
          return read !== null;
        };
        // Only the path and query matter; the resolver takes an absolute-form target as it is.
        const r = await resolver.resolve(method, request.url, exists);
        if (r.kind === "preflight") {
          return respond(method, 204, [...preflight, ["Access-Control-Allow-Headers", request.headers.get("access-control-request-headers") || "*"]], null);
        }
        if (r.kind === "error") return error(method, r.id);
        return await file(request, store, r, reads.get(r.file) ?? undefined, wantBody);
      } catch (e) {
        // A storage failure is not the client's fault, and the contract has no 5xx body: log it, answer not_found.
        console.error(`${method} ${request.url}: ${(e as Error).message}`);
        return error(method, "not_found");
      }
    },
  };
}
