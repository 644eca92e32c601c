// POST /mcp on the Worker (M4): mcp/http.ts over a catalog source that is the Worker itself. A tool's request target is
// answered by the Worker's own fetch, in-process (its resolver, its stores, the build it serves now: over R2, the one
// each answer names in X-Catalog-Build); the find index, a build record no URL serves, is read from the same storage:
// Static Assets by its path, R2 from the live build's manifest. What the tools keep between calls (the parsed index)
// lives as long as the isolate. Web APIs only (runs in workerd).
import { StorageFault } from "../../../api/runtime/build-index.ts";
import { createCatalogIndex } from "../../../mcp/catalog-index.ts";
import { answerMcp } from "../../../mcp/http.ts";
import { type BuildRecord, type CatalogSource, SourceUnavailable } from "../../../mcp/source.ts";
import { createCatalogServer } from "../../../mcp/tools.ts";
import { type CacheLike, gunzip, type R2Builds } from "./r2-builds.ts";
import type { AssetsBinding, Env } from "./stores.ts";

/** Static Assets belong to one Worker version: one build, named so. */
const ASSETS_BUILD = "assets";

export interface WorkerMcpOptions {
  basePath: string;
  /** the package version the MCP server reports (mcp/package-version.ts, written in by the adapter) */
  version: string;
  /** the Worker's own answer to a request (its fetch, without /mcp) */
  api(request: Request, env: Env, ctx?: { waitUntil(p: Promise<unknown>): void }): Promise<Response>;
  /** the isolate's reads of R2 builds (the Worker's: the same pointer and manifest shards) */
  builds: R2Builds;
  cache: () => CacheLike | undefined;
}

export function workerMcp(options: WorkerMcpOptions) {
  const catalog = createCatalogIndex();
  return (request: Request, env: Env, ctx?: { waitUntil(p: Promise<unknown>): void }): Promise<Response> => {
    const source: CatalogSource = {
      remote: false,
      async get(target, { ifNoneMatch } = {}) {
        const headers: Record<string, string> = ifNoneMatch === undefined ? {} : { "if-none-match": ifNoneMatch };
        // No Accept-Encoding: the body as it is, decoded from R2's gzip when stored so.
        const response = await options.api(
          new Request(new URL(options.basePath + target, request.url), { headers }),
          env,
          ctx,
        );
        const body = await response.text();
        if (response.status >= 500)
          throw new SourceUnavailable("the catalog cannot be read right now: try again in a second");
        const etag = response.headers.get("etag");
        const build = response.headers.get("x-catalog-build");
        return { status: response.status, body, ...(etag ? { etag } : {}), ...(build ? { build } : {}) };
      },
      // A record the storage cannot give is a storage fault (H7): logged, and the call fails in one line.
      record: (name, { unless } = {}) =>
        readRecord(env, options, name, unless, (p) => ctx?.waitUntil(p)).catch((e) => {
          if (e instanceof SourceUnavailable) throw e;
          console.error(`POST /mcp: reading ${name}: ${(e as Error).message.slice(0, 300)}`);
          throw new SourceUnavailable("the catalog cannot be read right now: try again in a second");
        }),
    };
    return answerMcp(request, {
      createServer: () => createCatalogServer(source, options.version, catalog),
      // Set by npm run start:cloudflare when it binds a loopback address: the Worker cannot see its own.
      loopbackOnly: env.MCP_LOOPBACK_ONLY === "1",
    });
  };
}

/** A build record of the build answering now: a file of Static Assets by its path, or of the live R2 build. */
async function readRecord(
  env: Env,
  options: WorkerMcpOptions,
  name: string,
  unless: string | undefined,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<BuildRecord | null> {
  if (!env.BUCKET) {
    if (unless === ASSETS_BUILD) return { build: ASSETS_BUILD };
    const text = await assetText(env.ASSETS!, name);
    return text === null ? null : { build: ASSETS_BUILD, text };
  }
  const view = await options.builds.view(env.BUCKET, options.cache(), waitUntil);
  if (view.build === null) throw new SourceUnavailable("no build is live in the bucket yet");
  if (unless === view.build) return { build: view.build };
  const read = await view.read(name, true);
  if (read === null) return null;
  const body = read.body ?? (await view.body(name));
  // A record is stored whole; a body made of parts (the export) comes as a stream, read here as one buffer.
  const stored = body instanceof ArrayBuffer ? body : await new Response(body).arrayBuffer();
  const bytes = read.meta.gzipLength === undefined ? stored : await gunzip(stored);
  return { build: view.build, text: new TextDecoder().decode(bytes) };
}

/** A file of Static Assets as text; null when the build has none. */
async function assetText(assets: AssetsBinding, file: string): Promise<string | null> {
  const res = await assets.fetch(`https://assets.invalid/${file.split("/").map(encodeURIComponent).join("/")}`);
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new StorageFault(file, `the assets binding answered ${res.status}`);
  }
  return res.text();
}
