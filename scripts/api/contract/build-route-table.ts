// Building the route table (dist/routes.json) from the operations' description (operations.ts: paths, parameters,
// errors) and the build's file layout (runtime/route-table.ts). Only the build runs this.
import type { Site } from "../../model/derive.ts";
import { type ErrorId, type Operation, type OperationId, operationList } from "../operations.ts";
import {
  ALL_FILTER,
  categoryFilter,
  DOCS_ASSETS,
  ERROR_STATUS,
  fill,
  layout,
  type Route,
  type RouteTable,
} from "../runtime/route-table.ts";

/** The files that answer each operation, in the order they are tried, and the variables they need beyond its
 *  parameters: the build's layout, which the operations' description does not know. */
function answerFiles(files: ReturnType<typeof layout>): Record<OperationId, Pick<Route, "vars" | "try">> {
  const one = (file: string) => ({ vars: {}, try: [{ file, status: 200 as const }] });
  return {
    listSoftware: {
      vars: { filter: { param: "category", absent: ALL_FILTER, present: categoryFilter("{category}") } },
      // Q8: a known filter always has its offset_out_of_range body, so an unknown one falls through to 404.
      try: [
        { file: files.page, status: 200 },
        { file: files.offsetOutOfRange, status: 400 },
      ],
    },
    getSoftware: one(files.tool),
    listCategories: one(files.categories),
    getBestInCategory: one(files.best),
    // S3: a valid prefix no name has shares the one empty answer.
    searchSoftware: {
      vars: {},
      try: [
        { file: files.search, status: 200 },
        { file: files.searchNone, status: 200 },
      ],
    },
    exportCatalog: one(files.export),
    getSyncRoot: one(files.syncRoot),
    getSyncShard: one(files.syncShard),
    getSyncPiece: one(files.syncPiece),
    getOpenApi: one(files.openapi),
  };
}

/** The route of one operation: its description's path, patterns, query checks and fallback, and its files. */
function routeOf(operation: OperationId, op: Operation, files: Pick<Route, "vars" | "try">): Route {
  return {
    operation,
    path: op.path,
    params: Object.fromEntries(Object.entries(op.pathParams).map(([name, p]) => [name, p.pattern])),
    query: op.query.map((p) => ({
      name: p.name,
      pattern: p.pattern,
      default: p.default,
      ...(p.absentError === undefined ? {} : { absentError: p.absentError }),
      error: p.error,
      repeatedError: p.repeatedError,
    })),
    vars: files.vars,
    try: files.try,
    fallback: op.fallback,
  };
}

/**
 * The Cache-Control of every success on every full host (H3): the one place it is made. `stale-while-revalidate` lets
 * a CDN answer from its copy for that long after max-age while it fetches the new one (docs/guide/api.md, "Caching").
 */
export function cacheControl(site: Pick<Site, "cacheMaxAge" | "cacheStaleWhileRevalidate">): string {
  const stale = site.cacheStaleWhileRevalidate > 0 ? `, stale-while-revalidate=${site.cacheStaleWhileRevalidate}` : "";
  return `public, max-age=${site.cacheMaxAge}${stale}`;
}

export function buildRouteTable(site: Site): RouteTable {
  const files = layout(site.basePath);
  const answers = answerFiles(files);
  const errors = Object.fromEntries(
    (Object.keys(ERROR_STATUS) as ErrorId[]).map((id) => [
      id,
      { status: ERROR_STATUS[id], file: fill(files.error, { id }) },
    ]),
  ) as RouteTable["errors"];
  return {
    basePath: site.basePath,
    assets: Object.values(DOCS_ASSETS),
    methods: ["GET", "HEAD", "OPTIONS"],
    headers: {
      all: {
        "Content-Type": "application/json; charset=utf-8",
        "Access-Control-Allow-Origin": "*",
        "X-Content-Type-Options": "nosniff",
      },
      success: { "Cache-Control": cacheControl(site) },
      preflight: { "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS", "Access-Control-Max-Age": "86400" },
    },
    errors,
    routes: operationList().map(([operation, op]) => routeOf(operation, op, answers[operation])),
  };
}
