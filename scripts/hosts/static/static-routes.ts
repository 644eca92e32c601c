// What a host without code can take from the route table: each route's request path and the file of its first
// 200 candidate, with path parameters and given query parameters left as the host's own placeholders.
import type { ErrorId, Route, RouteTable } from "../../api/runtime/route-table.ts";
import { fill } from "../../api/runtime/route-table.ts";

/** A route at fixed query presence: `given` names the query params the request carries. */
export interface StaticTarget {
  route: Route;
  /** request path, e.g. /v1/software/:slug */
  path: string;
  /** query params the request carries, each mapped to the host's placeholder */
  query: Record<string, string>;
  /** file below dist/ with the same placeholders, e.g. v1/software/:slug.json */
  file: string;
}

/** `{name}` segments of a template, in order. */
export const templateNames = (template: string): string[] => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** The request path of a route with each `{param}` replaced by `placeholder(param)`. */
export function requestPath(table: RouteTable, route: Route, placeholder: (name: string) => string): string {
  const vars = Object.fromEntries(templateNames(route.path).map((name) => [name, placeholder(name)]));
  return table.basePath + fill(route.path, vars);
}

/**
 * The file a route answers when the request carries exactly the query params in `given` (values = placeholders);
 * absent params take their default (Q9), vars take their `absent` or `present` form. undefined when that file
 * needs a value no placeholder or default supplies.
 */
export function staticTarget(
  table: RouteTable,
  route: Route,
  given: string[],
  placeholder: (name: string) => string,
): StaticTarget | undefined {
  const candidate = route.try.find((c) => c.status === 200);
  if (!candidate) return undefined;
  const vars: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const name of templateNames(route.path)) vars[name] = placeholder(name);
  for (const param of route.query) {
    if (given.includes(param.name)) vars[param.name] = query[param.name] = placeholder(param.name);
    else if (param.default !== null) vars[param.name] = param.default;
  }
  for (const [name, v] of Object.entries(route.vars)) {
    vars[name] = given.includes(v.param) ? fill(v.present, { ...vars, [v.param]: placeholder(v.param) }) : v.absent;
  }
  const needed = templateNames(candidate.file);
  if (needed.some((name) => vars[name] === undefined)) return undefined;
  return { route, path: requestPath(table, route, placeholder), query, file: fill(candidate.file, vars) };
}

/** Every subset of a route's query params, the largest first, so a host matching "all listed params present" picks the most specific rule. */
export function querySubsets(route: Route): string[][] {
  const names = route.query.map((q) => q.name);
  const subsets: string[][] = [];
  for (let mask = 0; mask < 1 << names.length; mask++) subsets.push(names.filter((_, i) => mask & (1 << i)));
  return subsets.sort((a, b) => b.length - a.length);
}

/** Templates of every file a route answers 200 with (for per-file headers). */
export const successTemplates = (table: RouteTable): string[] => [
  ...new Set(table.routes.flatMap((r) => r.try.filter((c) => c.status === 200).map((c) => c.file))),
];

/** The error file for an id, with a leading slash (a URL path on static hosts). */
export const errorUrl = (table: RouteTable, id: ErrorId): string => `/${table.errors[id].file}`;
