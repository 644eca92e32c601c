// Netlify: dist/_redirects and dist/_headers from the route table, and dist/404.html (the not_found body) for
// rewrites whose file does not exist. Partial by nature (see docs/hosts/static-hosts.md).
//
// Netlify's rules, as documented and as netlify-redirector (the matcher of `netlify dev`) measures them:
// first matching rule wins and rewrites are not re-evaluated; a query condition `name=:name` matches when the
// parameter is present (extra parameters are allowed), so one rule per combination of present parameters,
// most parameters first, expresses the defaults; a rewrite onto a missing file answers the site's 404.html,
// never a later rule. Rules are forced (`!`), so a file at the requested path never shadows them, except a rule
// for a path that is its own file (dropped as a loop if forced); the docs assets come first, and the last rule
// answers not_found for everything else (routes.json, host configs, errors/, page files by their path).

import { errorBodies } from "../../api/contract/error-bodies.ts";
import type { RouteTable } from "../../api/runtime/route-table.ts";
import { lazyFile, type OutputFile, routeTableKey } from "../../render/output.ts";
import { errorUrl, querySubsets, staticTarget, successTemplates } from "./static-routes.ts";

export const NETLIFY_REDIRECTS = "_redirects";
export const NETLIFY_HEADERS = "_headers";
/** Netlify answers a rewrite onto a missing file with the site's /404.html. */
export const NETLIFY_404_PAGE = "404.html";

const placeholder = (name: string) => `:${name}`;

function rule(from: string, query: Record<string, string>, to: string, status: string): string {
  const conditions = Object.entries(query).map(([name, value]) => `${name}=${value}`);
  return [from, ...conditions, to, status].join("  ");
}

/** A rule onto its own path is dropped as a loop: unforced, the existing file shadows it, else the 404 answers. */
const selfRule = (path: string, fallbackUrl: string) => rule(path, {}, fallbackUrl, "404");

export function netlifyRedirects(table: RouteTable): string {
  const lines = ["# Generated from routes.json by scripts/hosts/static/netlify.ts: first match wins, `!` = forced."];
  // The docs page and its files, at exactly their paths (checked before the API, as in the table).
  for (const asset of table.assets) {
    const to = `/${asset.file}`;
    lines.push(
      to === asset.path ? selfRule(asset.path, errorUrl(table, "not_found")) : rule(asset.path, {}, to, "200!"),
    );
  }
  for (const route of table.routes) {
    const subsets = route.query.length > 0 ? querySubsets(route) : [[]];
    for (const given of subsets) {
      const target = staticTarget(table, route, given, placeholder);
      if (!target) continue;
      const to = `/${target.file}`;
      if (to === target.path && given.length === 0) {
        lines.push(selfRule(target.path, errorUrl(table, route.fallback)));
      } else {
        lines.push(rule(target.path, target.query, to, "200!"));
      }
    }
  }
  // Everything else is not_found. The matcher drops a rule whose target is the request itself (a loop), so the
  // not_found file's own path answers from the 404 page, which holds the same body.
  lines.push(rule(errorUrl(table, "not_found"), {}, `/${NETLIFY_404_PAGE}`, "404!"));
  lines.push(rule("/*", {}, errorUrl(table, "not_found"), "404!"));
  return `${lines.join("\n")}\n`;
}

/** The deepest folder holding all these files, as a path prefix ("v1/"), or "" when they share none. */
function commonFolder(files: string[]): string {
  const dirs = files.map((file) => file.split("/").slice(0, -1));
  const common: string[] = [];
  for (let i = 0; dirs.every((d) => d[i] !== undefined && !d[i]!.includes("{") && d[i] === dirs[0]![i]); i++)
    common.push(dirs[0]![i]!);
  return common.length === 0 ? "" : `${common.join("/")}/`;
}

/**
 * Header blocks by path. No header name is set by two blocks that can match one path: whether Netlify joins or
 * overrides repeated names is not documented. The API folder holds every 200 file and every API request path, the
 * error folder every error body; the docs assets lie outside both (by the table's definition) and get their own type.
 */
export function netlifyHeaderBlocks(table: RouteTable): [path: string, headers: Record<string, string>][] {
  const typeName = Object.keys(table.headers.all).find((k) => k.toLowerCase() === "content-type") ?? "Content-Type";
  const { [typeName]: jsonType, ...everywhere } = table.headers.all;
  const json = jsonType === undefined ? {} : { [typeName]: jsonType };
  const api = commonFolder(successTemplates(table));
  const errors = commonFolder(Object.values(table.errors).map((e) => e.file));
  const apart = (a: string, b: string) => a !== "" && b !== "" && !a.startsWith(b) && !b.startsWith(a);
  const assetPaths = table.assets.map((a) => a.path);
  if (
    !apart(api, errors) ||
    [...assetPaths, `/${NETLIFY_404_PAGE}`].some((p) => p.startsWith(`/${api}`) || p.startsWith(`/${errors}`))
  ) {
    throw new Error(
      `netlify: the API folder "${api}", the error folder "${errors}" and the docs files must not overlap`,
    );
  }
  const blocks: [string, Record<string, string>][] = [
    ["/*", everywhere],
    [`/${api}*`, { ...json, ...table.headers.success }],
    [`/${errors}*`, json],
    [`/${NETLIFY_404_PAGE}`, json],
  ];
  // By request path only: a block for index.html would also type the hidden /index.html (a JSON 404) as HTML.
  for (const asset of table.assets)
    blocks.push([asset.path, { [typeName]: asset.contentType, ...table.headers.success }]);
  return blocks;
}

export function netlifyHeaders(table: RouteTable): string {
  return `${netlifyHeaderBlocks(table)
    .map(([path, headers]) => [path, ...Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`)].join("\n"))
    .join("\n\n")}\n`;
}

export function netlifyAdapter(table: RouteTable): OutputFile[] {
  return [
    lazyFile(NETLIFY_REDIRECTS, routeTableKey(table), () => netlifyRedirects(table)),
    lazyFile(NETLIFY_HEADERS, routeTableKey(table), () => netlifyHeaders(table)),
    { path: NETLIFY_404_PAGE, body: errorBodies(table.basePath).not_found },
  ];
}
