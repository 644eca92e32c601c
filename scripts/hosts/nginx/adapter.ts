// nginx: dist/nginx/server.conf (the maps and one server block, to include inside http { }) and dist/nginx/nginx.conf
// (a minimal complete config around it, for `npm run start:nginx`). Both come from the route table and the build's
// layout: a runs build (L2) adds dist/nginx/api-list-pages.js, the njs handler that answers list pages from the runs
// (list-pages.js with this table's settings), which server.conf imports and nginx.conf loads nginx's JavaScript module
// for.
//
// How a request flows: every external request lands in `location /`, which jumps to the named location the maps chose
// (@api_preflight, @api_error_<id>, @api_route_<operation>). A route tries its candidate files in order: a 200 file is
// served by try_files (ETag, 304), a file with an error status and every error body go through error_page to an
// internal location under /./api-body/, a prefix no request can reach because nginx resolves dot segments. Requests
// nginx rejects itself (undecodable path, bad request line, oversized headers) reach /./api-rejected, which answers the
// way the route table does, so no nginx HTML page is ever sent.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errorBodies } from "../../api/contract/error-bodies.ts";
import { PAGE_PREFIX } from "../../api/runtime/page-envelope.ts";
import {
  CODINGS,
  HOST_ERROR_STATUS,
  hostErrorFile,
  layout,
  MIN_COMPRESS_BYTES,
  type Route,
  type RouteTable,
} from "../../api/runtime/route-table.ts";
import { hashOfFile } from "../../launcher/file-hashes.cjs";
import { PROJECT_ROOT } from "../../launcher/project-cache.cjs";
import { offsetsFile, runFile } from "../../render/list-runs.ts";
import { lazyFile, type OutputFile, routeTableKey } from "../../render/output.ts";
import type { AdapterBuild } from "../adapter-build.ts";
import { block, mapBlock, quote, word } from "./conf.ts";
import { assetName, decisionMaps, fileTemplate, headerMaps, routeVar } from "./maps.ts";

export const NGINX_SERVER_CONF = "nginx/server.conf";
export const NGINX_MAIN_CONF = "nginx/nginx.conf";
/** Included by server.conf from nginx's configuration directory: listen, server_name, root of one deployment. */
export const NGINX_SITE_CONF = "api-site.conf";
/** nginx.conf's pid file, relative to the prefix: nginx writes it once it listens */
export const NGINX_PID_FILE = "nginx.pid";
/** A runs build's list-page handler, which server.conf imports from nginx's configuration directory (as api-site.conf) */
export const NGINX_LIST_PAGES = "nginx/api-list-pages.js";
/** The handler's source: list-pages.js, whose `const SETTINGS = {};` the adapter fills */
const LIST_PAGES_SOURCE = join(PROJECT_ROOT, "scripts/hosts/nginx/list-pages.js");
/** The name server.conf imports the handler by (`js_import … from api-list-pages.js`) */
const LIST_PAGES_MODULE = "api_list_pages";
/** Where Debian's libnginx-mod-http-js puts nginx's JavaScript module (njs); start.ts loads the one it finds. */
export const NGINX_JS_MODULE = "/usr/lib/nginx/modules/ngx_http_js_module.so";

const PAGES_BUILD: AdapterBuild = { layout: "pages", compress: false };

/** Internal prefix for bodies served with an error status; `/./` never survives nginx's URI normalisation. */
const BODY_PREFIX = "/./api-body";
/** Where requests nginx refused go; a URI, because a named location cannot take a request whose URI was never parsed. */
const REJECTED = "/./api-rejected";
/** Refusals that still depend on the request: an undecodable path or method or bad framing (400), TRACE (405), an
 * unknown Transfer-Encoding (501). */
const NGINX_REROUTED = [400, 405, 501];
/** Everything else nginx answers on its own (URI or headers too large, bad versions, …) is not_found, as in Node. */
const NGINX_NOT_FOUND = [403, 404, 408, 413, 414, 494, 500, 502, 503, 504, 505];

/** Explicit timeouts and limits, so that idle or slow connections cannot hold the host. */
export const NGINX_TIMEOUTS = [
  "# explicit timeouts: a client that sends nothing is dropped, and its socket reset, not left in FIN_WAIT",
  "client_header_timeout 10s;",
  "client_body_timeout 10s;",
  "send_timeout 10s;",
  "keepalive_timeout 5s;",
  "keepalive_requests 1000;",
  "reset_timedout_connection on;",
  "lingering_timeout 2s;",
];
/** Per worker: idle connections are cheap, so allow many; each needs one descriptor, and files need theirs. */
export const NGINX_WORKER_CONNECTIONS = 16384;
export const NGINX_WORKER_NOFILE = 40000;

/** nginx drops keep-alive after these statuses; answering them through a private code keeps the connection open. */
const CLOSES_CONNECTION = new Set([400, 413, 414, 500, 501]);
/** The private code for such a status: never sent, error_page replaces it with the status. */
const PRIVATE_CODE_OFFSET = 70;

/** `error_page` + `return` that answer `status` with a body file (a path template with $variables is fine). */
function answerWith(status: number, file: string): { errorPage: string; ret: string } {
  const code = CLOSES_CONNECTION.has(status) ? status + PRIVATE_CODE_OFFSET : status;
  return {
    errorPage: `error_page ${code} ${code === status ? "" : `=${status} `}${word(`${BODY_PREFIX}/${file}`)};`,
    ret: `return ${code};`,
  };
}

/**
 * Where a file is served: one that try_files found but nginx then cannot open or read (it vanished, or is unreadable)
 * answers 503 service_unavailable, as the Node server does (H7). A file removed before try_files looks is, to nginx,
 * no file: the next candidate answers (README's host table).
 */
const fileErrorPage = (table: RouteTable) =>
  [
    `error_page 403 404 500 =503 ${BODY_PREFIX}/${hostErrorFile(table, "service_unavailable")};`,
    // error_page here replaces the server's list: a body nginx cannot read while serving (a bad chunk) is still rerouted
    `error_page ${NGINX_REROUTED.join(" ")} = ${REJECTED};`,
  ].join("\n");

/** Jumps to a named location from the rewrite phase: `/.` is a directory, never a file, so try_files always falls through. */
const jump = (location: string) => `try_files /. ${location};`;

/**
 * @api_route_<op>, @api_route_<op>_2, …: one location per candidate, in order, then the fallback error. A 200 file is
 * served by try_files (ETag, 304, gzip_static); a file with an error status goes through error_page to its body.
 */
function routeLocations(route: Route, table: RouteTable, build: AdapterBuild): string[] {
  if (build.layout === "runs" && isListRoute(route, table)) return [listPagesLocation(route, table, build)];
  const name = (step: number) => `@api_route_${route.operation}${step === 0 ? "" : `_${step + 1}`}`;
  return route.try.map((candidate, step) => {
    const file = fileTemplate(route, candidate.file);
    const next = step + 1 < route.try.length ? name(step + 1) : `@api_error_${route.fallback}`;
    if (candidate.status === 200)
      return block(`location ${name(step)}`, [fileErrorPage(table), `try_files ${word(`/${file}`)} ${next};`]);
    const { errorPage, ret } = answerWith(candidate.status, file);
    return block(`location ${name(step)}`, [
      errorPage,
      `if (-f ${word(`$document_root/${file}`)}) {`,
      `    ${ret}`,
      "}",
      jump(next),
    ]);
  });
}

/** The route whose first candidate is a list page: a runs build answers it from the runs (L2). */
const isListRoute = (route: Route, table: RouteTable) => route.try[0]?.file === layout(table.basePath).page;

/**
 * What list-pages.js needs of the route table: the route's variables, its files (the range error, the fallback error)
 * and the 503 body, the runs' paths, the page's envelope, and the codings the Node server holds for a page. `{filter}`
 * in a path is the filter variable's value.
 */
export function listPagesSettings(route: Route, table: RouteTable, build: AdapterBuild) {
  const [, outOfRange, ...more] = route.try;
  const filter = route.vars.filter;
  const uses = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).join(",");
  if (
    !outOfRange ||
    more.length > 0 ||
    !filter ||
    uses(layout(table.basePath).page) !== "filter,limit,offset" ||
    uses(outOfRange.file) !== "filter"
  )
    throw new Error(
      `nginx adapter: ${route.operation}: list-pages.js answers a page file, then {filter}'s range error, then the fallback`,
    );
  const contentType = Object.entries(table.headers.all).find(([k]) => k.toLowerCase() === "content-type")?.[1];
  return {
    vars: {
      filter: routeVar(route, "filter"),
      limit: routeVar(route, "limit"),
      offset: routeVar(route, "offset"),
      category: routeVar(route, filter.param),
      categoryCount: routeVar(route, `${filter.param}_count`),
    },
    run: runFile("{filter}"),
    offsets: offsetsFile("{filter}"),
    outOfRange: { file: outOfRange.file, status: outOfRange.status },
    fallback: table.errors[route.fallback],
    unavailable: {
      status: HOST_ERROR_STATUS.service_unavailable,
      body: errorBodies(table.basePath).service_unavailable,
    },
    contentType: contentType ?? "application/json",
    pagePrefix: PAGE_PREFIX,
    codings: build.compress ? CODINGS.map((c) => c.name) : [],
    minCompressBytes: MIN_COMPRESS_BYTES,
  };
}

/** dist/nginx/api-list-pages.js: list-pages.js with this table's settings in place of `const SETTINGS = {};`. */
export function listPagesScript(table: RouteTable, build: AdapterBuild): string {
  const route = table.routes.find((r) => isListRoute(r, table));
  if (!route) throw new Error("nginx adapter: no route answers list pages");
  const source = readFileSync(LIST_PAGES_SOURCE, "utf8");
  const line = "const SETTINGS = {};";
  if (source.split(line).length !== 2) throw new Error(`nginx adapter: list-pages.js must hold \`${line}\` once`);
  return [
    "// Generated by scripts/hosts/nginx/adapter.ts from scripts/hosts/nginx/list-pages.js: rebuild instead of editing.",
    source.replace(line, `const SETTINGS = ${JSON.stringify(listPagesSettings(route, table, build))};`),
  ].join("\n");
}

/**
 * A runs build's list route: the njs handler reads the page from its list's run and answers every outcome itself (the
 * page, the range error, the fallback, 503); nginx adds the headers by status, and gzip as the Node server offers it.
 */
function listPagesLocation(route: Route, table: RouteTable, build: AdapterBuild): string {
  return block(`location @api_route_${route.operation}`, [
    `# a runs build (L2): the page is read from its list's run by ${NGINX_LIST_PAGES.slice("nginx/".length)}`,
    "# a handler that fails before it answers: 503, as a storage fault",
    `error_page 500 =503 ${BODY_PREFIX}/${hostErrorFile(table, "service_unavailable")};`,
    `error_page ${NGINX_REROUTED.join(" ")} = ${REJECTED};`,
    ...(build.compress
      ? [
          "# --compress: pages of 1 KB and more in gzip to clients that accept it (the ETag says which, Vary is the",
          "# handler's); clients behind a proxy too, as the Node server",
          "gzip on;",
          "gzip_types *;",
          `gzip_min_length ${MIN_COMPRESS_BYTES};`,
          "gzip_proxied any;",
          "gzip_vary off;",
        ]
      : ["# built without --compress: identity only, as the Node server", "gzip off;"]),
    "# no Content-Type but the handler's: a 304 has none (njs gives every answer the default type)",
    'default_type "";',
    `js_content ${LIST_PAGES_MODULE}.page;`,
  ]);
}

/** @api_error_<id>: the error's status and body file. */
function errorLocations(table: RouteTable): string[] {
  return (Object.entries(table.errors) as [string, { status: number; file: string }][]).map(([id, e]) => {
    const { errorPage, ret } = answerWith(e.status, e.file);
    return block(`location @api_error_${id}`, [errorPage, ret]);
  });
}

export function nginxServerConf(table: RouteTable, build: AdapterBuild = PAGES_BUILD): string {
  const headers = headerMaps(table);
  const contentType = Object.entries(table.headers.all).find(([k]) => k.toLowerCase() === "content-type")?.[1];
  const server = block("server", [
    `# listen, server_name and root of this deployment (start-nginx.ts writes one next to nginx.conf)`,
    `include ${NGINX_SITE_CONF};`,
    "",
    ...(build.layout === "runs"
      ? [
          "# a runs build: list pages are answered by njs (nginx.conf, or yours, loads ngx_http_js_module.so); the file",
          "# lies in nginx's configuration directory, as api-site.conf",
          `js_import ${LIST_PAGES_MODULE} from ${NGINX_LIST_PAGES.slice("nginx/".length)};`,
          "",
        ]
      : []),
    "server_tokens off;",
    "autoindex off;",
    "merge_slashes on;",
    "charset off;",
    "# bodies as built; `npm run build -- --compress` writes x.json.gz beside them, sent to clients that accept gzip",
    "gzip off;",
    "gzip_static on;",
    "gzip_vary on;",
    "expires off;",
    "etag on;",
    "# H3: If-None-Match alone decides 304 (Last-Modified is not sent)",
    "if_modified_since off;",
    "max_ranges 0;",
    "# P6: a body sent with a refused method is read and dropped, never answered with 413",
    "client_max_body_size 0;",
    "log_not_found off;",
    ...NGINX_TIMEOUTS,
    "# every request looks files up twice (route, then file): keep lookups, misses too, for 2 s (a rebuild shows within 2 s)",
    "open_file_cache max=20000 inactive=30s;",
    "open_file_cache_valid 2s;",
    "open_file_cache_errors on;",
    "recursive_error_pages on;",
    "types { }",
    `default_type ${quote(contentType ?? "application/octet-stream")};`,
    "",
    "# H1, H2: every response",
    ...Object.entries(table.headers.all)
      .filter(([k]) => k.toLowerCase() !== "content-type")
      .map(([k, v]) => `add_header ${k} ${word(v)} always;`),
    "# H1, H3, P5, P6: by final status",
    ...headers.map((h) => `add_header ${h.header} $${h.variable} always;`),
    `add_header Last-Modified "" always;`,
    "",
    "# requests nginx refuses before routing, and errors outside the locations below",
    `error_page ${NGINX_REROUTED.join(" ")} = ${REJECTED};`,
    `error_page ${NGINX_NOT_FOUND.join(" ")} =404 ${BODY_PREFIX}/${table.errors.not_found.file};`,
    "",
    block("location /", [
      "# /. is a directory, never a file: try_files always goes on to the named location the maps chose",
      jump("@api_$api_action"),
    ]),
    block(`location = ${REJECTED}`, ["internal;", jump("@api_$api_rejected_action")]),
    block("location @api_preflight", ["return 204;"]),
    block("location @api_bad_request", [
      "# framing nginx could not read: one JSON 400, and the connection closes",
      `return 400 ${quote(errorBodies(table.basePath).bad_request)};`,
    ]),
    ...errorLocations(table),
    ...table.assets.map((asset, i) =>
      block(`location @api_${assetName(i)}`, [
        `# ${asset.path}: a docs file, served as API files are but with its own type`,
        fileErrorPage(table),
        `default_type ${quote(asset.contentType)};`,
        `try_files ${word(`/${asset.file}`)} @api_error_not_found;`,
      ]),
    ),
    ...table.routes.flatMap((route) => routeLocations(route, table, build)),
    block(`location ^~ ${BODY_PREFIX}/`, [
      "internal;",
      "etag off;",
      "recursive_error_pages off;",
      `rewrite ${quote(`^${BODY_PREFIX.replace(".", "\\.")}(/.*)$`)} $1 break;`,
    ]),
  ]);
  return [
    [
      "# Generated from the route table (dist/routes.json) by scripts/hosts/nginx/adapter.ts: rebuild instead of editing.",
      "# Include this file inside http { }. It defines $api_* variables and one server block, which includes",
      `# ${NGINX_SITE_CONF} (listen, server_name, root = the dist/ folder) from nginx's configuration directory.`,
    ].join("\n"),
    // The maps define more variables than nginx's default variable hash (1024) holds without a warning at start.
    "variables_hash_max_size 4096;",
    ...decisionMaps(table).map(mapBlock),
    ...headers.map((h) => mapBlock(h.map)),
    `${server}\n`,
  ].join("\n\n");
}

/** Stand-alone: every relative path lies in the prefix given with `nginx -p`; nothing outside it is touched. */
export function nginxMainConf(build: AdapterBuild = PAGES_BUILD): string {
  return [
    "# Generated by scripts/hosts/nginx/adapter.ts. Stand-alone nginx for one dist/: `npm run start:nginx` copies this file",
    `# and server.conf into a temporary prefix, writes ${NGINX_SITE_CONF} there and runs`,
    "# nginx -p <prefix> -c <prefix>/nginx.conf -e stderr -g 'daemon off;'. Relative paths below stay in that prefix.",
    ...(build.layout === "runs"
      ? [
          "# A runs build: list pages need nginx's JavaScript module (Debian: libnginx-mod-http-js; start:nginx loads the",
          "# one it finds)",
          `load_module ${NGINX_JS_MODULE};`,
        ]
      : []),
    "worker_processes auto;",
    `pid ${NGINX_PID_FILE};`,
    "lock_file nginx.lock;",
    "error_log stderr warn;",
    "",
    `worker_rlimit_nofile ${NGINX_WORKER_NOFILE};`,
    "",
    block("events", [`worker_connections ${NGINX_WORKER_CONNECTIONS};`]),
    "",
    block("http", [
      "access_log off;",
      "client_body_temp_path client_body_temp;",
      "proxy_temp_path proxy_temp;",
      "fastcgi_temp_path fastcgi_temp;",
      "uwsgi_temp_path uwsgi_temp;",
      "scgi_temp_path scgi_temp;",
      "include server.conf;",
    ]),
    "",
  ].join("\n");
}

export function nginxAdapter(table: RouteTable, build: AdapterBuild = PAGES_BUILD): OutputFile[] {
  const key = `${routeTableKey(table)} ${build.layout} ${build.compress}`;
  return [
    lazyFile(NGINX_SERVER_CONF, key, () => nginxServerConf(table, build)),
    { path: NGINX_MAIN_CONF, body: nginxMainConf(build) },
    ...(build.layout === "runs"
      ? [lazyFile(NGINX_LIST_PAGES, `${key} ${hashOfFile(LIST_PAGES_SOURCE)}`, () => listPagesScript(table, build))]
      : []),
  ];
}
