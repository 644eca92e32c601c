// `npx serve dist` (serve 14, serve-handler 6): dist/serve.json maps each path route onto its file at the
// default query, and a 404.html gives missing paths the not_found body. Partial by nature (see
// docs/hosts/static-hosts.md): serve-handler ignores the query and the method, and has one 404 page.
//
// serve-handler, as read in its source: a path with an extension is looked up as a file before any rewrite,
// so rewrites cannot hide files. `public` is therefore the base-path folder (dist/v1): routes.json, host
// configs and errors/ lie outside it and are never served, and rewrite targets (below /v1) never match a
// rewrite source (which all start with /v1), so serve-handler's chained rewrites stop after one.

import { errorBodies } from "../../api/contract/error-bodies.ts";
import type { RouteTable } from "../../api/runtime/route-table.ts";
import type { OutputFile } from "../../render/output.ts";
import { staticTarget, successTemplates } from "./static-routes.ts";

/** serve reads this name from the folder it serves. */
export const SERVE_CONFIG_FILE = "serve.json";
/** serve-handler answers every 404 with `<public>/404.html`. */
export const SERVE_404_PAGE = "404.html";

interface HeaderRule {
  source: string;
  headers: { key: string; value: string }[];
}

export interface ServeConfig {
  public: string;
  cleanUrls: false;
  directoryListing: false;
  redirects: { source: string; destination: string; type: 404 }[];
  rewrites: { source: string; destination: string }[];
  headers: HeaderRule[];
}

/** The folder serve-handler serves: the base path's folder in dist/. */
export const servePublicDir = (table: RouteTable): string => table.basePath.slice(1);

/** A dist/ file path as serve-handler sees it below `public`. */
function belowPublic(table: RouteTable, file: string): string {
  const root = `${servePublicDir(table)}/`;
  if (!file.startsWith(root)) throw new Error(`serve: ${file} lies outside the served folder ${root}`);
  return file.slice(root.length - 1);
}

/** `{name}` → minimatch glob: a whole segment becomes `**` (a filter spans segments), part of one `*`. */
const glob = (template: string): string =>
  template
    .replace(/\{\w+\}/g, "*")
    .split("/")
    .map((segment) => (segment === "*" ? "**" : segment))
    .join("/");

const headerList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

export function serveConfig(table: RouteTable): ServeConfig {
  const rewrites = table.routes.flatMap((route) => {
    // Queries never reach serve-handler's matcher: each route answers its default query (Q2, Q3, Q9 defaults).
    const target = staticTarget(table, route, [], (name) => `:${name}`);
    return target ? [{ source: target.path, destination: belowPublic(table, target.file) }] : [];
  });
  const success = successTemplates(table).map((file) => ({
    source: glob(belowPublic(table, file)),
    headers: headerList(table.headers.success),
  }));
  return {
    public: servePublicDir(table),
    // cleanUrls would 301 /index and *.html paths; trailingSlash stays unset, so no slash redirect either (P2).
    cleanUrls: false,
    directoryListing: false,
    // serve-handler serves dotfiles like any file (P7). A dot path without an extension is rewritten onto the
    // served folder, which is never listed: the JSON 404. A dot path with an extension is looked up before any
    // rewrite, so only a redirect (checked first, any status) stops it: a 404 "redirect", with an empty body.
    redirects: ["**/.*.*", "**/.*/**/*.*"].map((source) => ({
      source,
      destination: table.basePath,
      type: 404 as const,
    })),
    rewrites: [...["**/.*", "**/.*/**"].map((source) => ({ source, destination: "/" })), ...rewrites],
    // Rules add up per file: every file (the 404 page too) gets headers.all, the API files also Cache-Control.
    headers: [{ source: "**", headers: headerList(table.headers.all) }, ...success],
  };
}

/** serve.json for a static copy: the folder itself is served, the docs page at / and the API below the base path. */
export type StaticCopyServeConfig = Omit<ServeConfig, "public" | "redirects">;

/**
 * `npx serve` on a static copy (`npm run export`): the same rewrites as dist/serve.json, onto the copy's own paths,
 * so `/v1/software` answers the first page instead of listing a folder, and every JSON file, the error bodies and
 * the 404 page (the not_found body) go out as JSON, the docs page and its files as their own types. A static copy
 * holds no dotfile and nothing internal, so nothing needs hiding here.
 */
export function staticCopyServeConfig(table: RouteTable): StaticCopyServeConfig {
  const rewrites = table.routes.flatMap((route) => {
    const target = staticTarget(table, route, [], (name) => `:${name}`);
    return target ? [{ source: target.path, destination: `/${target.file}` }] : [];
  });
  // The docs page at / (a folder serve-handler neither lists nor looks into for an index once listing is off).
  const pages = table.assets
    .filter((asset) => asset.path !== `/${asset.file}`)
    .map((asset) => ({ source: asset.path, destination: `/${asset.file}` }));
  const json = headerList(table.headers.all);
  const success = successTemplates(table).map((file) => ({
    source: glob(`/${file}`),
    headers: headerList(table.headers.success),
  }));
  const assets = table.assets.map((asset) => ({
    source: `/${asset.file}`,
    headers: headerList({ ...table.headers.all, "Content-Type": asset.contentType }),
  }));
  return {
    cleanUrls: false,
    directoryListing: false,
    rewrites: [...pages, ...rewrites],
    // Rules add up per file: JSON headers on the API, the error bodies and the 404 page; Cache-Control on the API files.
    headers: [
      ...[`${table.basePath}/**`, "/errors/**", `/${SERVE_404_PAGE}`].map((source) => ({ source, headers: json })),
      ...success,
      ...assets,
    ],
  };
}

export function serveAdapter(table: RouteTable): OutputFile[] {
  return [
    { path: SERVE_CONFIG_FILE, body: `${JSON.stringify(serveConfig(table), null, 2)}\n` },
    { path: `${servePublicDir(table)}/${SERVE_404_PAGE}`, body: errorBodies(table.basePath).not_found },
  ];
}
