// The generated nginx config for the tiny fixture, pinned (that the real nginx accepts it: the integration test of
// the same name).
import { beforeAll, describe, expect, it } from "vitest";
import type { RouteTable } from "../../../../scripts/api/runtime/route-table.ts";
import { nginxAdapter, nginxMainConf, nginxServerConf } from "../../../../scripts/hosts/nginx/adapter.ts";
import { tinyTable } from "../../../helpers/hosts/nginx/adapter-output.ts";

let table: RouteTable;
beforeAll(async () => {
  table = await tinyTable();
});

describe("nginx adapter output", () => {
  it("writes nginx/server.conf and nginx/nginx.conf, nothing else; a runs build's list-page handler too", () => {
    expect(nginxAdapter(table).map((f) => f.path)).toEqual(["nginx/server.conf", "nginx/nginx.conf"]);
    expect(nginxAdapter(table, { layout: "pages", compress: true }).map((f) => f.path)).toEqual([
      "nginx/server.conf",
      "nginx/nginx.conf",
    ]);
    expect(nginxAdapter(table, { layout: "runs", compress: false }).map((f) => f.path)).toEqual([
      "nginx/server.conf",
      "nginx/nginx.conf",
      "nginx/api-list-pages.js",
    ]);
  });

  it("a runs build: the js_import, and the list route's location runs the handler; every other line as a pages build's", () => {
    /** the list route's locations, and the rest of the config without them */
    const split = (conf: string) => {
      const lines = conf.split("\n");
      const list: string[] = [];
      const rest: string[] = [];
      let inList = false;
      for (const line of lines) {
        if (line.startsWith("    location @api_route_listSoftware")) inList = true;
        (inList ? list : rest).push(line);
        if (inList && line === "    }") inList = false;
      }
      return { list: list.join("\n"), rest };
    };
    const pages = split(nginxServerConf(table));
    const runs = split(nginxServerConf(table, { layout: "runs", compress: false }));
    const compressed = split(nginxServerConf(table, { layout: "runs", compress: true }));
    // a pages build's config does not depend on --compress (gzip_static finds the .gz files)
    expect(nginxServerConf(table, { layout: "pages", compress: true })).toBe(nginxServerConf(table));
    const imports = runs.rest.filter((line) => !pages.rest.includes(line));
    expect(imports).toMatchInlineSnapshot(`
      [
        "    # a runs build: list pages are answered by njs (nginx.conf, or yours, loads ngx_http_js_module.so); the file",
        "    # lies in nginx's configuration directory, as api-site.conf",
        "    js_import api_list_pages from api-list-pages.js;",
      ]
    `);
    const site = "    include api-site.conf;\n\n";
    expect(runs.rest.join("\n")).toBe(pages.rest.join("\n").replace(site, `${site}${imports.join("\n")}\n\n`));
    expect(compressed.rest).toEqual(runs.rest);
    expect(runs.list).toMatchInlineSnapshot(`
      "    location @api_route_listSoftware {
              # a runs build (L2): the page is read from its list's run by api-list-pages.js
              # a handler that fails before it answers: 503, as a storage fault
              error_page 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              # built without --compress: identity only, as the Node server
              gzip off;
              # no Content-Type but the handler's: a 304 has none (njs gives every answer the default type)
              default_type "";
              js_content api_list_pages.page;
          }"
    `);
    expect(compressed.list).toMatchInlineSnapshot(`
      "    location @api_route_listSoftware {
              # a runs build (L2): the page is read from its list's run by api-list-pages.js
              # a handler that fails before it answers: 503, as a storage fault
              error_page 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              # --compress: pages of 1 KB and more in gzip to clients that accept it (the ETag says which, Vary is the
              # handler's); clients behind a proxy too, as the Node server
              gzip on;
              gzip_types *;
              gzip_min_length 1024;
              gzip_proxied any;
              gzip_vary off;
              # no Content-Type but the handler's: a 304 has none (njs gives every answer the default type)
              default_type "";
              js_content api_list_pages.page;
          }"
    `);
  });

  it("nginx.conf of a runs build loads nginx's JavaScript module at the main level", () => {
    const pages = nginxMainConf().split("\n");
    const runs = nginxMainConf({ layout: "runs", compress: false }).split("\n");
    expect(runs.filter((line) => !pages.includes(line))).toMatchInlineSnapshot(`
      [
        "# A runs build: list pages need nginx's JavaScript module (Debian: libnginx-mod-http-js; start:nginx loads the",
        "# one it finds)",
        "load_module /usr/lib/nginx/modules/ngx_http_js_module.so;",
      ]
    `);
    expect(runs.findIndex((l) => l.startsWith("load_module"))).toBeLessThan(
      runs.findIndex((l) => l.startsWith("events")),
    );
  });

  it("api-list-pages.js is list-pages.js with the table's settings", () => {
    const file = nginxAdapter(table, { layout: "runs", compress: true }).find((f) => f.path.endsWith(".js"))!;
    const lines = String(file.body).split("\n");
    expect(lines[0]).toMatch(/^\/\/ Generated by scripts\/hosts\/nginx\/adapter\.ts/);
    const settings = lines.find((l) => l.startsWith("const SETTINGS = "))!;
    expect(JSON.parse(settings.slice("const SETTINGS = ".length, -1))).toMatchInlineSnapshot(`
      {
        "codings": [
          "br",
          "gzip",
        ],
        "contentType": "application/json; charset=utf-8",
        "fallback": {
          "file": "errors/category_not_found.json",
          "status": 404,
        },
        "minCompressBytes": 1024,
        "offsets": "runs/{filter}.offsets",
        "outOfRange": {
          "file": "errors/offset_out_of_range/{filter}.json",
          "status": 400,
        },
        "pagePrefix": "{"data":[",
        "run": "runs/{filter}.run",
        "unavailable": {
          "body": "{"error":{"code":"service_unavailable","message":"The service cannot answer this request right now.","hint":"Retry after 1 second."}}",
          "status": 503,
        },
        "vars": {
          "category": "api_listSoftware_category",
          "categoryCount": "api_listSoftware_category_count",
          "filter": "api_listSoftware_filter",
          "limit": "api_listSoftware_limit",
          "offset": "api_listSoftware_offset",
        },
      }
    `);
    expect(lines.filter((l) => l.startsWith("const SETTINGS"))).toHaveLength(1);
  });

  it("derives everything from the table: another base path, cache age and slug pattern change the config", () => {
    const other: RouteTable = JSON.parse(JSON.stringify(table)) as RouteTable;
    other.basePath = "/api";
    other.headers.success["Cache-Control"] = "public, max-age=5";
    for (const route of other.routes) {
      for (const name of Object.keys(route.params))
        route.params[name] = name === "shard" ? "^[a-z]+\\.json$" : "^[a-z]+$"; // slug, categorySlug
    }
    const conf = nginxServerConf(other);
    expect(conf).toContain('"~^/(?:a|%61)(?:p|%70)(?:i|%69)/(?:c|%63)');
    expect(conf).not.toMatch(/\(\?:v\|%76\)/);
    expect(conf).toContain('200 "public, max-age=5";');
    expect(conf).not.toContain("max-age=60");
    expect(conf).not.toContain("0-9a-z");
  });

  it("server.conf for the tiny fixture's table", () => {
    expect(nginxServerConf(table)).toMatchInlineSnapshot(`
      "# Generated from the route table (dist/routes.json) by scripts/hosts/nginx/adapter.ts: rebuild instead of editing.
      # Include this file inside http { }. It defines $api_* variables and one server block, which includes
      # api-site.conf (listen, server_name, root = the dist/ folder) from nginx's configuration directory.

      variables_hash_max_size 4096;

      # the raw request line, only when it is METHOD SP target SP HTTP/x.y (no HTTP/0.9, no spaces in the target)
      map $request $api_method {
          default "";
          "~^(?<api_c1>[^ ]+) [^ ]+ HTTP/[0-9]\\\\.[0-9]$" $api_c1;
      }

      # origin-form or absolute-form target, exactly as sent
      map $request $api_target {
          default "";
          "~^[^ ]+ (?:[Hh][Tt][Tt][Pp][Ss]?://[^/?#]*)?(?<api_c2>/[^ ]*) HTTP/[0-9]\\\\.[0-9]$" $api_c2;
      }

      map $api_target $api_path {
          default "";
          "~^(?<api_c3>[^?]*)" $api_c3;
      }

      map $api_target $api_query {
          default "";
          "~\\\\?(?<api_c4>.*)$" $api_c4;
      }

      # P4–P6: the method decides first
      map $api_method $api_method_kind {
          default invalid;
          "~^GET$" serve;
          "~^HEAD$" serve;
          "~^OPTIONS$" preflight;
          "~." disallowed;
      }

      # the docs assets at their exact raw path, then P1–P3, P7: the raw path against each route; \`!id\` = the error that answers
      map $api_path $api_route {
          default !not_found;
          "~^\\\\/$" asset_0;
          "~^\\\\/docs\\\\/redoc\\\\.standalone\\\\.js$" asset_1;
          "~^\\\\/docs\\\\/redoc\\\\.standalone\\\\.js\\\\.LICENSE\\\\.txt$" asset_2;
          "~^\\\\/llms\\\\.txt$" asset_3;
          "~^/(?:v|%76)(?:1|%31)/(?:s|%73)(?:o|%6[Ff])(?:f|%66)(?:t|%74)(?:w|%77)(?:a|%61)(?:r|%72)(?:e|%65)/?$" listSoftware;
          "~^/(?:v|%76)(?:1|%31)/(?:s|%73)(?:o|%6[Ff])(?:f|%66)(?:t|%74)(?:w|%77)(?:a|%61)(?:r|%72)(?:e|%65)/(?:[0-9a-z]|%(?:3[0-9]|6[1-9A-Fa-f]|7[0-9Aa]))+(?:(?:\\\\-|%2[Dd])(?:[0-9a-z]|%(?:3[0-9]|6[1-9A-Fa-f]|7[0-9Aa]))+)*/?$" getSoftware;
          "~^/(?:v|%76)(?:1|%31)/(?:s|%73)(?:o|%6[Ff])(?:f|%66)(?:t|%74)(?:w|%77)(?:a|%61)(?:r|%72)(?:e|%65)/(?:[^/%?#\\\\x00-\\\\x20\\\\x7f-\\\\xff]|%[0-7][0-9A-Fa-f]|%(?:[Cc][2-9A-Fa-f]|[Dd][0-9A-Fa-f])%[89ABab][0-9A-Fa-f]|%[Ee]0%[ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ee][1-9A-Ca-cEFef]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ee][Dd]%[89][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff]0%[9ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff][1-3]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff]4%8[0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f])+/?$" !software_not_found;
          "~^/(?:v|%76)(?:1|%31)/(?:c|%63)(?:a|%61)(?:t|%74)(?:e|%65)(?:g|%67)(?:o|%6[Ff])(?:r|%72)(?:i|%69)(?:e|%65)(?:s|%73)/?$" listCategories;
          "~^/(?:v|%76)(?:1|%31)/(?:b|%62)(?:e|%65)(?:s|%73)(?:t|%74)/(?:[0-9a-z]|%(?:3[0-9]|6[1-9A-Fa-f]|7[0-9Aa]))+(?:(?:\\\\-|%2[Dd])(?:[0-9a-z]|%(?:3[0-9]|6[1-9A-Fa-f]|7[0-9Aa]))+)*/?$" getBestInCategory;
          "~^/(?:v|%76)(?:1|%31)/(?:b|%62)(?:e|%65)(?:s|%73)(?:t|%74)/(?:[^/%?#\\\\x00-\\\\x20\\\\x7f-\\\\xff]|%[0-7][0-9A-Fa-f]|%(?:[Cc][2-9A-Fa-f]|[Dd][0-9A-Fa-f])%[89ABab][0-9A-Fa-f]|%[Ee]0%[ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ee][1-9A-Ca-cEFef]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ee][Dd]%[89][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff]0%[9ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff][1-3]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff]4%8[0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f])+/?$" !category_not_found;
          "~^/(?:v|%76)(?:1|%31)/(?:s|%73)(?:e|%65)(?:a|%61)(?:r|%72)(?:c|%63)(?:h|%68)/?$" searchSoftware;
          "~^/(?:v|%76)(?:1|%31)/(?:e|%65)(?:x|%78)(?:p|%70)(?:o|%6[Ff])(?:r|%72)(?:t|%74)/(?:c|%63)(?:a|%61)(?:t|%74)(?:a|%61)(?:l|%6[Cc])(?:o|%6[Ff])(?:g|%67)(?:\\\\.|%2[Ee])(?:j|%6[Aa])(?:s|%73)(?:o|%6[Ff])(?:n|%6[Ee])/?$" exportCatalog;
          "~^/(?:v|%76)(?:1|%31)/(?:s|%73)(?:y|%79)(?:n|%6[Ee])(?:c|%63)/(?:i|%69)(?:n|%6[Ee])(?:d|%64)(?:e|%65)(?:x|%78)(?:\\\\.|%2[Ee])(?:j|%6[Aa])(?:s|%73)(?:o|%6[Ff])(?:n|%6[Ee])/?$" getSyncRoot;
          "~^/(?:v|%76)(?:1|%31)/(?:s|%73)(?:y|%79)(?:n|%6[Ee])(?:c|%63)/(?:[0-9a-z]|%(?:3[0-9]|6[1-9A-Fa-f]|7[0-9Aa]))(?:[\\\\-0-9a-z]|%(?:2[Dd]|3[0-9]|6[1-9A-Fa-f]|7[0-9Aa]))*(?:\\\\.|%2[Ee])(?:j|%6[Aa])(?:s|%73)(?:o|%6[Ff])(?:n|%6[Ee])/?$" getSyncShard;
          "~^/(?:v|%76)(?:1|%31)/(?:s|%73)(?:y|%79)(?:n|%6[Ee])(?:c|%63)/(?:[^/%?#\\\\x00-\\\\x20\\\\x7f-\\\\xff]|%[0-7][0-9A-Fa-f]|%(?:[Cc][2-9A-Fa-f]|[Dd][0-9A-Fa-f])%[89ABab][0-9A-Fa-f]|%[Ee]0%[ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ee][1-9A-Ca-cEFef]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ee][Dd]%[89][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff]0%[9ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff][1-3]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff]4%8[0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f])+/?$" !not_found;
          "~^/(?:v|%76)(?:1|%31)/(?:s|%73)(?:y|%79)(?:n|%6[Ee])(?:c|%63)/(?:p|%70)(?:i|%69)(?:e|%65)(?:c|%63)(?:e|%65)(?:s|%73)/(?:[0-9a-f]|%(?:3[0-9]|6[1-6])){64}(?:\\\\.|%2[Ee])(?:j|%6[Aa])(?:s|%73)(?:o|%6[Ff])(?:n|%6[Ee])/?$" getSyncPiece;
          "~^/(?:v|%76)(?:1|%31)/(?:s|%73)(?:y|%79)(?:n|%6[Ee])(?:c|%63)/(?:p|%70)(?:i|%69)(?:e|%65)(?:c|%63)(?:e|%65)(?:s|%73)/(?:[^/%?#\\\\x00-\\\\x20\\\\x7f-\\\\xff]|%[0-7][0-9A-Fa-f]|%(?:[Cc][2-9A-Fa-f]|[Dd][0-9A-Fa-f])%[89ABab][0-9A-Fa-f]|%[Ee]0%[ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ee][1-9A-Ca-cEFef]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ee][Dd]%[89][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff]0%[9ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff][1-3]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ff]4%8[0-9A-Fa-f]%[89ABab][0-9A-Fa-f]%[89ABab][0-9A-Fa-f])+/?$" !not_found;
          "~^/(?:v|%76)(?:1|%31)/(?:o|%6[Ff])(?:p|%70)(?:e|%65)(?:n|%6[Ee])(?:a|%61)(?:p|%70)(?:i|%69)(?:\\\\.|%2[Ee])(?:j|%6[Aa])(?:s|%73)(?:o|%6[Ff])(?:n|%6[Ee])/?$" getOpenApi;
      }

      # listSoftware: how often limit is given (exact name, raw query)
      map $api_query $api_listSoftware_limit_count {
          default 0;
          "~(?:^|&)limit(?=[=&]|$).*&limit(?:[=&]|$)" 2;
          "~(?:^|&)limit(?:[=&]|$)" 1;
      }

      # listSoftware: limit as sent, never decoded; 20 when absent
      map $api_query $api_listSoftware_limit {
          default 20;
          "~(?:^|&)limit(?:=(?<api_c9>[^&]*))?(?:&|$)" $api_c9;
      }

      map $api_listSoftware_limit $api_listSoftware_limit_valid {
          default 0;
          "~^(100|[1-9][0-9]?)$" 1;
      }

      # listSoftware: limit absent or valid → ok
      map $api_listSoftware_limit_count$api_listSoftware_limit_valid $api_listSoftware_limit_state {
          00 ok;
          01 ok;
          10 invalid;
          11 ok;
          20 repeated;
          21 repeated;
      }

      # listSoftware: how often offset is given (exact name, raw query)
      map $api_query $api_listSoftware_offset_count {
          default 0;
          "~(?:^|&)offset(?=[=&]|$).*&offset(?:[=&]|$)" 2;
          "~(?:^|&)offset(?:[=&]|$)" 1;
      }

      # listSoftware: offset as sent, never decoded; 0 when absent
      map $api_query $api_listSoftware_offset {
          default 0;
          "~(?:^|&)offset(?:=(?<api_c10>[^&]*))?(?:&|$)" $api_c10;
      }

      map $api_listSoftware_offset $api_listSoftware_offset_valid {
          default 0;
          "~^(0|[1-9][0-9]*)$" 1;
      }

      # listSoftware: offset absent or valid → ok
      map $api_listSoftware_offset_count$api_listSoftware_offset_valid $api_listSoftware_offset_state {
          00 ok;
          01 ok;
          10 invalid;
          11 ok;
          20 repeated;
          21 repeated;
      }

      # listSoftware: how often category is given (exact name, raw query)
      map $api_query $api_listSoftware_category_count {
          default 0;
          "~(?:^|&)category(?=[=&]|$).*&category(?:[=&]|$)" 2;
          "~(?:^|&)category(?:[=&]|$)" 1;
      }

      # listSoftware: category as sent, never decoded; empty when absent
      map $api_query $api_listSoftware_category {
          default "";
          "~(?:^|&)category(?:=(?<api_c11>[^&]*))?(?:&|$)" $api_c11;
      }

      map $api_listSoftware_category $api_listSoftware_category_valid {
          default 0;
          "~^[a-z0-9]+(?:-[a-z0-9]+)*$" 1;
      }

      # listSoftware: category absent or valid → ok
      map $api_listSoftware_category_count$api_listSoftware_category_valid $api_listSoftware_category_state {
          00 ok;
          01 ok;
          10 invalid;
          11 ok;
          20 repeated;
          21 repeated;
      }

      # listSoftware: the first parameter that fails, in declared order (Q8)
      map "$api_listSoftware_limit_state $api_listSoftware_offset_state $api_listSoftware_category_state " $api_listSoftware_query_error {
          default "";
          "~^repeated " invalid_limit;
          "~^invalid " invalid_limit;
          "~^ok repeated " invalid_offset;
          "~^ok invalid " invalid_offset;
          "~^ok ok repeated " category_repeated;
          "~^ok ok invalid " category_not_found;
      }

      # listSoftware: {filter}
      map $api_listSoftware_category_count $api_listSoftware_filter {
          default "category/\${api_listSoftware_category}";
          0 all;
      }

      # getSoftware: {slug}, decoded
      map $uri $api_getSoftware_slug {
          default "";
          "~^/v1/software/(?<api_c12>[^/]+)/?$" $api_c12;
      }

      # getBestInCategory: {categorySlug}, decoded
      map $uri $api_getBestInCategory_categorySlug {
          default "";
          "~^/v1/best/(?<api_c13>[^/]+)/?$" $api_c13;
      }

      # searchSoftware: how often q is given (exact name, raw query)
      map $api_query $api_searchSoftware_q_count {
          default 0;
          "~(?:^|&)q(?=[=&]|$).*&q(?:[=&]|$)" 2;
          "~(?:^|&)q(?:[=&]|$)" 1;
      }

      # searchSoftware: q as sent, never decoded; empty when absent
      map $api_query $api_searchSoftware_q {
          default "";
          "~(?:^|&)q(?:=(?<api_c14>[^&]*))?(?:&|$)" $api_c14;
      }

      map $api_searchSoftware_q $api_searchSoftware_q_valid {
          default 0;
          "~^[a-z0-9]{1,32}$" 1;
      }

      # searchSoftware: q valid → ok
      map $api_searchSoftware_q_count$api_searchSoftware_q_valid $api_searchSoftware_q_state {
          00 absent;
          01 absent;
          10 invalid;
          11 ok;
          20 repeated;
          21 repeated;
      }

      # searchSoftware: the first parameter that fails, in declared order (Q8)
      map "$api_searchSoftware_q_state " $api_searchSoftware_query_error {
          default "";
          "~^repeated " invalid_query;
          "~^invalid " invalid_query;
          "~^absent " invalid_query;
      }

      # getSyncShard: {shard}, decoded
      map $uri $api_getSyncShard_shard {
          default "";
          "~^/v1/sync/(?<api_c15>[^/]+)/?$" $api_c15;
      }

      # getSyncPiece: {piece}, decoded
      map $uri $api_getSyncPiece_piece {
          default "";
          "~^/v1/sync/pieces/(?<api_c16>[^/]+)/?$" $api_c16;
      }

      map $api_route $api_query_error {
          default "";
          "~^listSoftware$" $api_listSoftware_query_error;
          "~^searchSoftware$" $api_searchSoftware_query_error;
      }

      # what answers: a named location @api_<action>
      map "$api_method_kind $api_route $api_query_error" $api_action {
          default error_not_found;
          "~^invalid " error_not_found;
          "~^preflight " preflight;
          "~^disallowed " error_method_not_allowed;
          "~^serve (?<api_c5>asset_[0-9]+) " $api_c5;
          "~^serve !(?<api_c6>\\\\S+)" error_$api_c6;
          "~^serve \\\\S+ (?<api_c7>\\\\S+)$" error_$api_c7;
          "~^serve (?<api_c8>\\\\S+) $" route_$api_c8;
      }

      # a refused request that announced a body (any Transfer-Encoding): its framing could not be read
      map $http_transfer_encoding $api_rejected_framing {
          default "";
          "~." "framing ";
      }

      # a request nginx refused (400, 501, or 405 for TRACE): bad framing is a 400; else the method decides first; a path it could not decode (empty $request_uri) is routed as usual; anything else (bad headers, no Host) is not_found
      map "$api_rejected_framing$api_method_kind $request_uri" $api_rejected_action {
          default error_not_found;
          "~^framing " bad_request;
          "~^disallowed " error_method_not_allowed;
          "~^\\\\S+ $" $api_action;
      }

      # H1: nginx drops Content-Type from a 204; put it back (a 304 has none)
      map $status $api_bodyless_content_type {
          volatile;
          default "";
          204 "application/json; charset=utf-8";
      }

      # H3: Cache-Control on successful responses only
      map $status $api_success_0 {
          volatile;
          default "";
          200 "public, max-age=60";
          304 "public, max-age=60";
      }

      # P5: Access-Control-Allow-Methods on the preflight answer
      map $status $api_preflight_0 {
          volatile;
          default "";
          204 "GET, HEAD, OPTIONS";
      }

      # P5: Access-Control-Max-Age on the preflight answer
      map $status $api_preflight_1 {
          volatile;
          default "";
          204 86400;
      }

      # P5: echo the preflight's Access-Control-Request-Headers, or *
      map "$status:$http_access_control_request_headers" $api_allow_headers {
          volatile;
          default "";
          "204:" "*";
          "~^204:(?<api_requested_headers>.+)$" $api_requested_headers;
      }

      # P6
      map $status $api_allow {
          volatile;
          default "";
          405 "GET, HEAD, OPTIONS";
      }

      # H7: a body that cannot be read now
      map $status $api_retry_after {
          volatile;
          default "";
          503 1;
      }

      # H7: and no cache keeps that answer
      map $status $api_unavailable_cache {
          volatile;
          default "";
          503 no-store;
      }

      server {
          # listen, server_name and root of this deployment (start-nginx.ts writes one next to nginx.conf)
          include api-site.conf;

          server_tokens off;
          autoindex off;
          merge_slashes on;
          charset off;
          # bodies as built; \`npm run build -- --compress\` writes x.json.gz beside them, sent to clients that accept gzip
          gzip off;
          gzip_static on;
          gzip_vary on;
          expires off;
          etag on;
          # H3: If-None-Match alone decides 304 (Last-Modified is not sent)
          if_modified_since off;
          max_ranges 0;
          # P6: a body sent with a refused method is read and dropped, never answered with 413
          client_max_body_size 0;
          log_not_found off;
          # explicit timeouts: a client that sends nothing is dropped, and its socket reset, not left in FIN_WAIT
          client_header_timeout 10s;
          client_body_timeout 10s;
          send_timeout 10s;
          keepalive_timeout 5s;
          keepalive_requests 1000;
          reset_timedout_connection on;
          lingering_timeout 2s;
          # every request looks files up twice (route, then file): keep lookups, misses too, for 2 s (a rebuild shows within 2 s)
          open_file_cache max=20000 inactive=30s;
          open_file_cache_valid 2s;
          open_file_cache_errors on;
          recursive_error_pages on;
          types { }
          default_type "application/json; charset=utf-8";

          # H1, H2: every response
          add_header Access-Control-Allow-Origin "*" always;
          add_header X-Content-Type-Options nosniff always;
          # H1, H3, P5, P6: by final status
          add_header Content-Type $api_bodyless_content_type always;
          add_header Cache-Control $api_success_0 always;
          add_header Access-Control-Allow-Methods $api_preflight_0 always;
          add_header Access-Control-Max-Age $api_preflight_1 always;
          add_header Access-Control-Allow-Headers $api_allow_headers always;
          add_header Allow $api_allow always;
          add_header Retry-After $api_retry_after always;
          add_header Cache-Control $api_unavailable_cache always;
          add_header Last-Modified "" always;

          # requests nginx refuses before routing, and errors outside the locations below
          error_page 400 405 501 = /./api-rejected;
          error_page 403 404 408 413 414 494 500 502 503 504 505 =404 /./api-body/errors/not_found.json;

          location / {
              # /. is a directory, never a file: try_files always goes on to the named location the maps chose
              try_files /. @api_$api_action;
          }
          location = /./api-rejected {
              internal;
              try_files /. @api_$api_rejected_action;
          }
          location @api_preflight {
              return 204;
          }
          location @api_bad_request {
              # framing nginx could not read: one JSON 400, and the connection closes
              return 400 "{\\"error\\":{\\"code\\":\\"bad_request\\",\\"message\\":\\"The request is not valid HTTP/1.1: its Transfer-Encoding, Content-Length or chunked body cannot be read.\\",\\"hint\\":\\"Send GET, HEAD or OPTIONS requests without a body.\\"}}";
          }
          location @api_error_not_found {
              error_page 404 /./api-body/errors/not_found.json;
              return 404;
          }
          location @api_error_method_not_allowed {
              error_page 405 /./api-body/errors/method_not_allowed.json;
              return 405;
          }
          location @api_error_invalid_limit {
              error_page 470 =400 /./api-body/errors/invalid_limit.json;
              return 470;
          }
          location @api_error_invalid_offset {
              error_page 470 =400 /./api-body/errors/invalid_offset.json;
              return 470;
          }
          location @api_error_software_not_found {
              error_page 404 /./api-body/errors/software_not_found.json;
              return 404;
          }
          location @api_error_category_not_found {
              error_page 404 /./api-body/errors/category_not_found.json;
              return 404;
          }
          location @api_error_category_repeated {
              error_page 470 =400 /./api-body/errors/category_repeated.json;
              return 470;
          }
          location @api_error_invalid_query {
              error_page 470 =400 /./api-body/errors/invalid_query.json;
              return 470;
          }
          location @api_asset_0 {
              # /: a docs file, served as API files are but with its own type
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              default_type "text/html; charset=utf-8";
              try_files /index.html @api_error_not_found;
          }
          location @api_asset_1 {
              # /docs/redoc.standalone.js: a docs file, served as API files are but with its own type
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              default_type "text/javascript; charset=utf-8";
              try_files /docs/redoc.standalone.js @api_error_not_found;
          }
          location @api_asset_2 {
              # /docs/redoc.standalone.js.LICENSE.txt: a docs file, served as API files are but with its own type
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              default_type "text/plain; charset=utf-8";
              try_files /docs/redoc.standalone.js.LICENSE.txt @api_error_not_found;
          }
          location @api_asset_3 {
              # /llms.txt: a docs file, served as API files are but with its own type
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              default_type "text/plain; charset=utf-8";
              try_files /llms.txt @api_error_not_found;
          }
          location @api_route_listSoftware {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files "/v1/software/pages/\${api_listSoftware_filter}/\${api_listSoftware_limit}/\${api_listSoftware_offset}.json" @api_route_listSoftware_2;
          }
          location @api_route_listSoftware_2 {
              error_page 470 =400 "/./api-body/errors/offset_out_of_range/\${api_listSoftware_filter}.json";
              if (-f "$document_root/errors/offset_out_of_range/\${api_listSoftware_filter}.json") {
                  return 470;
              }
              try_files /. @api_error_category_not_found;
          }
          location @api_route_getSoftware {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files "/v1/software/\${api_getSoftware_slug}.json" @api_error_software_not_found;
          }
          location @api_route_listCategories {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files /v1/categories.json @api_error_not_found;
          }
          location @api_route_getBestInCategory {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files "/v1/best/\${api_getBestInCategory_categorySlug}.json" @api_error_category_not_found;
          }
          location @api_route_searchSoftware {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files "/v1/search/\${api_searchSoftware_q}.json" @api_route_searchSoftware_2;
          }
          location @api_route_searchSoftware_2 {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files /v1/search/_none.json @api_error_not_found;
          }
          location @api_route_exportCatalog {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files /v1/export/catalog.json @api_error_not_found;
          }
          location @api_route_getSyncRoot {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files /v1/sync/index.json @api_error_not_found;
          }
          location @api_route_getSyncShard {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files "/v1/sync/\${api_getSyncShard_shard}" @api_error_not_found;
          }
          location @api_route_getSyncPiece {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files "/v1/sync/pieces/\${api_getSyncPiece_piece}" @api_error_not_found;
          }
          location @api_route_getOpenApi {
              error_page 403 404 500 =503 /./api-body/errors/service_unavailable.json;
              error_page 400 405 501 = /./api-rejected;
              try_files /v1/openapi.json @api_error_not_found;
          }
          location ^~ /./api-body/ {
              internal;
              etag off;
              recursive_error_pages off;
              rewrite "^/\\\\./api-body(/.*)$" $1 break;
          }
      }
      "
    `);
  });
});
