// The host-neutral route table as every runtime reads it: its types, the build's file layout and the templates that
// fill it. Its size does not grow with the catalog. The Node server and every host adapter read only this and dist/;
// the build makes the table (contract/build-route-table.ts). Web APIs only: it runs in the Worker.
import {
  type ErrorId,
  HOST_ERROR_STATUS,
  type HostErrorId,
  type QueryParameter,
  ROUTE_ERROR_STATUS,
} from "../operations.ts";

// The limits and patterns are the operations' (operations.ts); they are named here too for the code that reads a table.
export {
  DEFAULT_LIMIT,
  type ErrorId,
  HASH_TREE_SHARD_PATTERN,
  HOST_ERROR_STATUS,
  type HostErrorId,
  LIMIT_PATTERN,
  MAX_LIMIT,
  MAX_SEARCH_PREFIX,
  OFFSET_PATTERN,
  PIECE_PATTERN,
  RETRY_AFTER_SECONDS,
  SEARCH_LIMIT,
  SEARCH_PATTERN,
} from "../operations.ts";

/** A query parameter as the resolver checks it: its description in operations.ts, without the words. */
export type QueryParam = Pick<
  QueryParameter,
  "name" | "pattern" | "default" | "absentError" | "error" | "repeatedError"
>;

/** A file to try; the first that exists answers, with its status. */
export interface Candidate {
  file: string;
  status: 200 | 400;
}

export interface Route {
  operation: string;
  /** path below basePath; `{name}` is a whole percent-decoded segment (P3) that must match params[name] */
  path: string;
  params: Record<string, string>;
  /** checked in this order; the first failure answers (Q8) */
  query: QueryParam[];
  /** variables computed from a query parameter: `absent` when it is not given, else `present` with `{param}` filled */
  vars: Record<string, { param: string; absent: string; present: string }>;
  try: Candidate[];
  /** answered when a path parameter fails its pattern or no candidate file exists */
  fallback: ErrorId;
}

/** A file of the site outside basePath (the docs page), served at exactly this path with its own type. */
export interface Asset {
  path: string;
  file: string;
  contentType: string;
}

/** The docs page, what it loads, and /llms.txt (the API told to a language model): the only files served outside
 *  basePath (P9). */
export const DOCS_ASSETS = {
  page: { file: "index.html", path: "/", contentType: "text/html; charset=utf-8" },
  redoc: {
    file: "docs/redoc.standalone.js",
    path: "/docs/redoc.standalone.js",
    contentType: "text/javascript; charset=utf-8",
  },
  redocLicense: {
    file: "docs/redoc.standalone.js.LICENSE.txt",
    path: "/docs/redoc.standalone.js.LICENSE.txt",
    contentType: "text/plain; charset=utf-8",
  },
  llms: { file: "llms.txt", path: "/llms.txt", contentType: "text/plain; charset=utf-8" },
} as const satisfies Record<string, Asset>;

/** Where the Node server and the Worker answer MCP (M4): outside basePath, and no file (mcp/http.ts). */
export const MCP_PATH = "/mcp";

export interface RouteTable {
  basePath: string;
  /** matched on the raw path before anything else (no decoding, no trailing-slash folding); headers as API files,
   *  with Content-Type replaced by the asset's */
  assets: Asset[];
  /** served methods; OPTIONS answers 204 with the preflight headers (P5), any other method 405 (P6) */
  methods: string[];
  headers: {
    /** every response (H1, H2) */
    all: Record<string, string>;
    /** 200 and 304 responses (H3); an ETag is added by the host. A 304 carries no Content-Type (RFC 9110 §15.4.5) */
    success: Record<string, string>;
    /** OPTIONS 204; Access-Control-Allow-Headers echoes the request's Access-Control-Request-Headers, or `*` */
    preflight: Record<string, string>;
  };
  errors: Record<ErrorId, { status: 400 | 404 | 405; file: string }>;
  routes: Route[];
}

/** Where each body lives in dist/. `{x}` is filled from route variables; render and routes share these. */
export function layout(basePath: string) {
  const base = basePath.slice(1);
  return {
    page: `${base}/software/pages/{filter}/{limit}/{offset}.json`,
    tool: `${base}/software/{slug}.json`,
    categories: `${base}/categories.json`,
    best: `${base}/best/{categorySlug}.json`,
    openapi: `${base}/openapi.json`,
    /** one answer per word prefix some tool's name has (S1); a prefix is [a-z0-9], so it never names the empty answer */
    search: `${base}/search/{q}.json`,
    searchNone: `${base}/search/_none.json`,
    export: `${base}/export/catalog.json`,
    /** the hash tree's root and its shards (E2), at their own request paths so file hosts serve them as they are */
    syncRoot: `${base}/sync/index.json`,
    syncShard: `${base}/sync/{shard}`,
    /** the pieces the hash tree names (each list's items and the export's, cut where the content says), by id */
    syncPiece: `${base}/sync/pieces/{piece}`,
    offsetOutOfRange: "errors/offset_out_of_range/{filter}.json",
    error: "errors/{id}.json",
    routeTable: "routes.json",
  };
}

/** The layout of one base path: computed once where a build or a host starts, and handed to what needs a path. */
export type RouteLayout = ReturnType<typeof layout>;

/**
 * Not a build's file: what `npm run export -- --pages aligned` writes beside the list pages it keeps, `{ aligned,
 * limits }`, so that a client on a file host (the docs page, a typed client) asks only for pages that are there.
 */
export const alignedLimitsFile = (basePath: string) => `${basePath.slice(1)}/software/pages/limits.json`;

/** Content codings a build may hold beside a body (`build --compress`), in the order hosts prefer them. */
export type Coding = "br" | "gzip";
/** Where a body's precompressed siblings lie: `x.json.br`, `x.json.gz`. */
export const CODINGS: readonly { name: Coding; suffix: ".br" | ".gz" }[] = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
];
/** Bodies this small gain nothing from compression: they have no siblings. */
export const MIN_COMPRESS_BYTES = 1024;

export const ALL_FILTER = "all";
export const categoryFilter = (slug: string) => `category/${slug}`;

export type Template = (vars: Record<string, string | number>) => string;

/**
 * `a/{x}/b` → a function that fills it, compiled once (hosts fill per request). Given the names a caller always
 * provides, a template naming another is refused here, at compile time; filling without a value throws.
 */
export function compileTemplate(template: string, known?: readonly string[]): Template {
  const parts = template.split(/\{(\w+)\}/);
  const unknown = known && parts.find((name, i) => i % 2 === 1 && !known.includes(name));
  if (unknown !== undefined) throw new Error(`template ${template}: no value for {${unknown}}`);
  // Joined, not concatenated: a joined string is one flat string, where `+=` leaves a rope of a node per part, which
  // a build keeps for each of its hundred thousand paths (a tenth of its live heap was such nodes).
  return (vars) => {
    const out: (string | number)[] = [parts[0]!];
    for (let i = 1; i < parts.length; i += 2) {
      const value = vars[parts[i]!];
      if (value === undefined) throw new Error(`template ${template}: no value for {${parts[i]}}`);
      out.push(value, parts[i + 1]!);
    }
    return out.join("");
  };
}

/** Fills `{name}` placeholders once. Throws on a missing variable: a template and its caller must agree. */
const compiled = new Map<string, Template>();

/** Fills a template once: compiled on its first use (a build fills a few templates thousands of times). */
export const fill = (template: string, vars: Record<string, string | number>): string => {
  let compiledTemplate = compiled.get(template);
  if (!compiledTemplate) compiled.set(template, (compiledTemplate = compileTemplate(template)));
  return compiledTemplate(vars);
};

/** Every error the route table answers with one fixed body, by id, with its status (H4). */
export const ERROR_STATUS: Readonly<Record<ErrorId, 400 | 404 | 405>> = ROUTE_ERROR_STATUS;

/** Where the body of an error a host answers on its own (bad_request, service_unavailable) lies. */
export const hostErrorFile = (table: RouteTable, id: HostErrorId): string => fill(layout(table.basePath).error, { id });

/** Every file template a request can be answered with: route candidates, error bodies, the docs page's files. */
export function answerTemplates(table: RouteTable): string[] {
  const files = [
    ...table.routes.flatMap((route) => route.try.map((candidate) => candidate.file)),
    ...Object.values(table.errors).map((error) => error.file),
    ...(Object.keys(HOST_ERROR_STATUS) as HostErrorId[]).map((id) => hostErrorFile(table, id)),
    ...table.assets.map((asset) => asset.file),
  ];
  return [...new Set(files)].sort();
}
