// nginx: dist/nginx/server.conf (the maps and one server block, to include inside http { }) and dist/nginx/nginx.conf
// (a minimal complete config around it, for `npm run start:nginx`). Both come from the route table alone.
//
// How a request flows: every external request lands in `location /`, which jumps to the named location the maps chose
// (@api_preflight, @api_error_<id>, @api_route_<operation>). A route tries its candidate files in order: a 200 file is
// served by try_files (ETag, 304), a file with an error status and every error body go through error_page to an
// internal location under /./api-body/, a prefix no request can reach because nginx resolves dot segments. Requests
// nginx rejects itself (undecodable path, bad request line, oversized headers) reach /./api-rejected, which answers the
// way the route table does, so no nginx HTML page is ever sent.

import { errorBodies } from "../../api/contract/error-bodies.ts";
import { hostErrorFile, type Route, type RouteTable } from "../../api/runtime/route-table.ts";
import { lazyFile, type OutputFile, routeTableKey } from "../../render/output.ts";
import { block, mapBlock, quote, word } from "./conf.ts";
import { assetName, decisionMaps, fileTemplate, headerMaps } from "./maps.ts";

export const NGINX_SERVER_CONF = "nginx/server.conf";
export const NGINX_MAIN_CONF = "nginx/nginx.conf";
/** Included by server.conf from nginx's configuration directory: listen, server_name, root of one deployment. */
export const NGINX_SITE_CONF = "api-site.conf";
/** nginx.conf's pid file, relative to the prefix: nginx writes it once it listens */
export const NGINX_PID_FILE = "nginx.pid";

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
function routeLocations(route: Route, table: RouteTable): string[] {
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

/** @api_error_<id>: the error's status and body file. */
function errorLocations(table: RouteTable): string[] {
  return (Object.entries(table.errors) as [string, { status: number; file: string }][]).map(([id, e]) => {
    const { errorPage, ret } = answerWith(e.status, e.file);
    return block(`location @api_error_${id}`, [errorPage, ret]);
  });
}

export function nginxServerConf(table: RouteTable): string {
  const headers = headerMaps(table);
  const contentType = Object.entries(table.headers.all).find(([k]) => k.toLowerCase() === "content-type")?.[1];
  const server = block("server", [
    `# listen, server_name and root of this deployment (start-nginx.ts writes one next to nginx.conf)`,
    `include ${NGINX_SITE_CONF};`,
    "",
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
    ...table.routes.flatMap((route) => routeLocations(route, table)),
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
export function nginxMainConf(): string {
  return [
    "# Generated by scripts/hosts/nginx/adapter.ts. Stand-alone nginx for one dist/: `npm run start:nginx` copies this file",
    `# and server.conf into a temporary prefix, writes ${NGINX_SITE_CONF} there and runs`,
    "# nginx -p <prefix> -c <prefix>/nginx.conf -e stderr -g 'daemon off;'. Relative paths below stay in that prefix.",
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

export function nginxAdapter(table: RouteTable): OutputFile[] {
  return [
    lazyFile(NGINX_SERVER_CONF, routeTableKey(table), () => nginxServerConf(table)),
    { path: NGINX_MAIN_CONF, body: nginxMainConf() },
  ];
}
