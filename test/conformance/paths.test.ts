// P1–P8: where the API lives, how paths match, and which methods answer.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { CANARY, CANARY_FILES } from "../helpers/conformance/canary.ts";
import { categoryWith } from "../helpers/conformance/catalog.ts";
import { suiteContext } from "../helpers/conformance/context.ts";
import { expectCommonHeaders, expectError, expectOk } from "../helpers/conformance/expect-response.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import type { Reply } from "../helpers/conformance/http.ts";
import { predict } from "../helpers/conformance/oracle.ts";
import { mapPool, POOL } from "../helpers/conformance/pool.ts";
import { rawRequest } from "../helpers/conformance/raw-http.ts";

const { distDir, catalog } = suiteContext();
const base = catalog.basePath;
const tool = catalog.tools[0]!;
const listed = categoryWith(catalog, "listed");
const allowed = "GET, HEAD, OPTIONS";

/** percent-encodes the first character of a segment: `%61cme` */
const encodeFirst = (s: string, hexCase: "lower" | "upper" = "upper") => {
  const hex = s.charCodeAt(0).toString(16);
  return `%${hexCase === "upper" ? hex.toUpperCase() : hex}${s.slice(1)}`;
};

/** one target of each kind of answer */
const kinds = {
  list: `${base}/software`,
  listQuery: `${base}/software?limit=5&offset=1`,
  filtered: `${base}/software?category=${listed.slug}`,
  tool: `${base}/software/${tool.slug}`,
  categories: `${base}/categories`,
  best: `${base}/best/${listed.slug}`,
  invalidLimit: `${base}/software?limit=0`,
  unknownTool: `${base}/software/no-such-tool-here`,
  notFound: `${base}/no-such-endpoint`,
};

/** P7 targets: every file and directory of dist/ (the page tree by its first entry at each level) */
function distPaths(): string[] {
  const pages = `${base.slice(1)}/software/pages`;
  const out: string[] = [];
  const walk = (rel: string) => {
    const names = readdirSync(join(distDir, rel)).sort();
    // the page tree holds thousands of files: its first entry at each level stands for it
    for (const name of rel.startsWith(pages) ? names.slice(0, 1) : names) {
      const path = rel ? `${rel}/${name}` : name;
      if (statSync(join(distDir, path)).isDirectory()) {
        out.push(`/${path}`, `/${path}/`);
        walk(path);
      } else out.push(`/${path}`);
    }
  };
  walk("");
  return out;
}

const sameAnswer = (a: Reply, b: Reply) => {
  expect({ status: b.status, etag: b.headers.get("etag"), body: b.text }, `${b.target} answers as ${a.target}`).toEqual(
    {
      status: a.status,
      etag: a.headers.get("etag"),
      body: a.text,
    },
  );
};

forEachHost(({ test, client }) => {
  test("P1 every endpoint answers under the base path from routes.json", async () => {
    for (const target of [kinds.list, kinds.tool, kinds.categories, kinds.best]) expectOk(await client().get(target));
  });

  test("P1 endpoints without the base path answer 404 not_found", async () => {
    for (const path of ["/software", "/categories", `/software/${tool.slug}`, `/best/${listed.slug}`])
      expectError(await client().get(path), 404, "not_found");
  });

  test("P1 another or a case-changed base path answers 404 not_found", async () => {
    for (const prefix of ["/v0", `${base}x`, `/x${base}`, base.toUpperCase()].filter((p) => p !== base)) {
      expectError(await client().get(`${prefix}/categories`), 404, "not_found");
    }
  });

  test("P1 the base path alone is no endpoint: 404 not_found", async () => {
    for (const path of [base, `${base}/`]) expectError(await client().get(path), 404, "not_found");
  });

  test("P1 outside the base path only the docs assets of routes.json are served, at exactly their paths", async () => {
    expect(catalog.assets.length, "routes.json lists the docs page").toBeGreaterThan(0);
    for (const asset of catalog.assets) {
      const reply = await client().get(asset.path);
      expect(reply.status, asset.path).toBe(200);
      expectCommonHeaders(reply, asset.contentType);
      expect(reply.headers.get("etag") ?? "(absent)", `${asset.path}: H3 ETag`).toMatch(/^(W\/)?"[^"]+"$/);
      expect(reply.headers.get("cache-control") ?? "(absent)", `${asset.path}: H3`).toMatch(/\bpublic\b/);
      expect(reply.text, `${asset.path} is its file`).toBe(readFileSync(join(distDir, asset.file), "utf8"));
      // raw-path match only: no trailing slash, no decoding, not by its file name
      const near = [
        `${asset.path}/`,
        `/${asset.file}`,
        asset.path.replace(/\.(\w+)$/, "%2E$1"),
        asset.path.toUpperCase(),
      ];
      for (const target of near.filter((t) => !catalog.assets.some((a) => a.path === t))) {
        expectError(await rawRequest(client().origin, target), 404, "not_found");
      }
    }
  });

  test("P1 an absolute-form request target answers as its origin-form (RFC 9112 §3.2.2)", async () => {
    const origin = client().origin;
    const reply = await rawRequest(origin, `${origin}${kinds.categories}`);
    const plain = await client().get(kinds.categories);
    expect(reply.status).toBe(200);
    expect(reply.body.toString("utf8")).toBe(plain.text);
  });

  test("P2 trailing slash answers as without", async () => {
    for (const target of Object.values(kinds)) {
      const [path, query] = target.split("?");
      const plain = await client().get(target);
      const slashed = await client().get(`${path}/${query === undefined ? "" : `?${query}`}`);
      sameAnswer(plain, slashed);
    }
  });

  test("P2 only one trailing slash is ignored: two answer 404 not_found", async () => {
    for (const target of [`${kinds.categories}//`, `${kinds.tool}//`, `${kinds.list}//`])
      expectError(await client().get(target), 404, "not_found");
  });

  test("P3 percent-encoded path segments are decoded before matching", async () => {
    const pairs: [string, string][] = [
      [kinds.tool, `${base}/software/${encodeFirst(tool.slug)}`],
      [kinds.tool, `${base}/software/${encodeFirst(tool.slug, "lower")}`],
      [kinds.best, `${base}/best/${encodeFirst(listed.slug)}`],
      [kinds.categories, `${base}/${encodeFirst("categories")}`],
      [kinds.list, `${base}/${encodeFirst("software")}`],
    ];
    for (const [plain, encoded] of pairs) sameAnswer(await client().get(plain), await client().get(encoded));
  });

  test("P3 slugs match exactly: no case folding", async () => {
    expectError(await client().get(`${base}/software/${tool.slug.toUpperCase()}`), 404, "software_not_found");
    expectError(await client().get(`${base}/best/${listed.slug.toUpperCase()}`), 404, "category_not_found");
    expectError(await client().get(`${base}/Categories`), 404, "not_found");
    expectError(await client().get(`${base}/SOFTWARE`), 404, "not_found");
  });

  test("P3 %2e%2e is a decoded segment, not a step up: 404 software_not_found", async () => {
    // raw: fetch would treat %2e%2e as `..` and remove it
    for (const segment of ["%2e%2e", "%2E%2E", ".%2e"]) {
      expectError(await rawRequest(client().origin, `${base}/software/${segment}`), 404, "software_not_found");
    }
  });

  test("P3 %2f and %5c inside a segment do not split it", async () => {
    expectError(await rawRequest(client().origin, `${base}/software/${tool.slug}%2fx`), 404, "software_not_found");
    expectError(await rawRequest(client().origin, `${base}/software/x%2F${tool.slug}`), 404, "software_not_found");
    expectError(await rawRequest(client().origin, `${base}/best/x%5c${listed.slug}`), 404, "category_not_found");
    expectError(await rawRequest(client().origin, `${base}/software%2f${tool.slug}`), 404, "not_found");
  });

  test("P3 %00 in a segment is a character no slug has", async () => {
    expectError(await rawRequest(client().origin, `${base}/software/${tool.slug}%00`), 404, "software_not_found");
    expectError(await rawRequest(client().origin, `${base}/categories%00`), 404, "not_found");
  });

  test("P3 a segment with malformed percent-encoding matches nothing: 404 not_found", async () => {
    for (const segment of ["%zz", "%", "%4", `${tool.slug}%`, "%e9", "%c3%28"]) {
      expectError(await rawRequest(client().origin, `${base}/software/${segment}`), 404, "not_found");
    }
  });

  test("P3 an empty segment matches nothing: 404 not_found", async () => {
    for (const target of [`${base}//categories`, `/${base}/categories`, `${base}/software//${tool.slug}`]) {
      expectError(await rawRequest(client().origin, target), 404, "not_found");
    }
  });

  test("P4 HEAD has the same status and headers as GET, and no body", async () => {
    // hop-by-hop and per-message headers may differ; Content-Length, when HEAD sends it, must be GET's
    const ignored = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
    const headerMap = (r: Reply) => Object.fromEntries([...r.headers].filter(([k]) => !ignored.has(k)));
    for (const target of Object.values(kinds)) {
      const get = await client().get(target);
      const head = await client().request(target, { method: "HEAD" });
      expect(head.status, `HEAD ${target}`).toBe(get.status);
      expect(headerMap(head), `HEAD ${target} headers`).toEqual(headerMap(get));
      const length = head.headers.get("content-length");
      if (length !== null) expect(Number(length), `HEAD ${target} Content-Length`).toBe(Buffer.byteLength(get.text));
      expect(head.text, `HEAD ${target} body`).toBe("");
    }
  });

  test("P4 HEAD sends no body bytes on the wire", async () => {
    for (const target of [kinds.tool, kinds.notFound, kinds.invalidLimit]) {
      const reply = await rawRequest(client().origin, target, { method: "HEAD" });
      expect(reply.status, `HEAD ${target}`).toBeGreaterThanOrEqual(200);
      expect(reply.body.length, `HEAD ${target} body bytes`).toBe(0);
    }
  });

  test("P5 OPTIONS answers 204 with CORS preflight headers on any path", async () => {
    for (const target of [kinds.list, kinds.tool, kinds.notFound, "/routes.json", "/", kinds.invalidLimit]) {
      const reply = await client().request(target, {
        method: "OPTIONS",
        headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
      });
      expect(reply.status, `OPTIONS ${target}`).toBe(204);
      expect(reply.text, `OPTIONS ${target} body`).toBe("");
      expectCommonHeaders(reply);
      expect(reply.headers.get("access-control-allow-methods")).toBe(allowed);
      expect(reply.headers.get("access-control-allow-headers"), "no request headers asked: *").toBe("*");
      expect(reply.headers.get("access-control-max-age") ?? "(absent)").toMatch(/^[1-9][0-9]*$/);
    }
  });

  test("P5 Access-Control-Allow-Headers echoes Access-Control-Request-Headers", async () => {
    for (const asked of ["x-requested-with", "authorization, x-api-client", "Content-Type,X-Trace-Id"]) {
      const reply = await client().request(kinds.list, {
        method: "OPTIONS",
        headers: {
          Origin: "https://app.example",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": asked,
        },
      });
      expect(reply.status).toBe(204);
      expect(reply.headers.get("access-control-allow-headers")).toBe(asked);
    }
  });

  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
    test(`P6 ${method} → 405 method_not_allowed with Allow: GET, HEAD, OPTIONS`, async () => {
      for (const target of [kinds.list, kinds.tool, kinds.categories]) {
        const reply = await client().request(target, {
          method,
          headers: { "Content-Type": "application/json" },
          body: method === "DELETE" ? undefined : "{}",
        });
        expectError(reply, 405, "method_not_allowed");
        expect(reply.headers.get("allow")).toBe(allowed);
      }
    });
  }

  test("P6 other methods (PROPFIND, PURGE, TRACE, MKCOL) → 405 method_not_allowed", async () => {
    for (const [method, target] of [
      ["PROPFIND", kinds.list],
      ["PURGE", kinds.tool],
      ["TRACE", kinds.categories],
      ["MKCOL", kinds.notFound],
    ] as const) {
      // fetch refuses TRACE: raw socket for all
      const reply = await rawRequest(client().origin, target, { method });
      expectError(reply, 405, "method_not_allowed");
      expect(reply.headers.allow).toBe(allowed);
    }
  });

  test("P6 the method is checked before the path and the query", async () => {
    for (const target of [kinds.notFound, kinds.invalidLimit, "/routes.json", kinds.unknownTool]) {
      const reply = await client().request(target, { method: "POST", body: "x" });
      expectError(reply, 405, "method_not_allowed");
      expect(reply.headers.get("allow")).toBe(allowed);
    }
  });

  test("P7 unknown paths answer 404 not_found", async () => {
    const targets = [
      `${base}/nope`,
      `${base}/software/${tool.slug}/extra`,
      `${base}/best`,
      `${base}/best/${listed.slug}/x`,
      "/favicon.ico",
      "/index.html",
      `${base}/categories/${listed.slug}`,
      "/robots.txt",
    ];
    for (const target of targets) expectError(await client().get(target), 404, "not_found");
  });

  test("P7 page files by their own path answer 404 not_found", async () => {
    for (const target of [
      `${base}/software/pages/all/20/0.json`,
      `${base}/software/pages/all/20/0`,
      `${base}/software/pages/category/${listed.slug}/20/0.json`,
      `${base}/software/pages/all/`,
    ]) {
      expectError(await client().get(target), 404, "not_found");
    }
  });

  test("P7 the files behind endpoints are not served by their own path", async () => {
    expectError(await client().get(`${base}/categories.json`), 404, "not_found");
    expectError(await client().get(`${base}/software/${tool.slug}.json`), 404, "software_not_found");
    expectError(await client().get(`${base}/best/${listed.slug}.json`), 404, "category_not_found");
  });

  test("P7 routes.json, serve.json, host configs and errors/ answer 404 not_found", async () => {
    const targets = [
      "/routes.json",
      `${base}/routes.json`,
      "/serve.json",
      "/nginx.conf",
      "/nginx/nginx.conf",
      "/nginx/",
      "/netlify.toml",
      "/_redirects",
      "/_headers",
      "/errors/not_found.json",
      "/errors/",
      "/errors",
      "/errors/offset_out_of_range/all.json",
      "/package.json",
    ];
    for (const target of targets) expectError(await client().get(target), 404, "not_found");
  });

  test("P7 no file or directory of dist/ is served by its own path, and no directory is listed", async () => {
    // dist/v1/software/ is also the list endpoint, v1/openapi.json is P8's: only non-endpoints are checked here
    const targets = distPaths().flatMap((target) => {
      const expected = predict(target, "", catalog);
      return expected.kind === "error" ? [{ target, expected }] : [];
    });
    expect(targets.length).toBeGreaterThan(10);
    await mapPool(targets, POOL, async ({ target, expected }) => {
      expectError(await client().get(target), expected.status, expected.code);
    });
  });

  test("P7 dotfiles planted in dist/ are never served", async () => {
    for (const file of CANARY_FILES) {
      for (const target of [`/${file}`, `/${file.replace(/\.json$/, "")}`]) {
        const reply = await rawRequest(client().origin, target);
        expect(reply.status, target).toBe(404);
        expect(reply.raw.toString("utf8"), target).not.toContain(CANARY);
        expectCommonHeaders(reply);
      }
    }
  });

  test("P7 dotfiles and config names answer 404 not_found", async () => {
    for (const target of [
      "/.env",
      "/.git/config",
      "/.git/HEAD",
      "/.htaccess",
      "/.DS_Store",
      `${base}/.env`,
      `${base}/.well-known/x`,
    ]) {
      expectError(await client().get(target), 404, "not_found");
    }
    expectError(await client().get(`${base}/software/.env`), 404, "software_not_found");
  });

  test("P8 GET /v1/openapi.json serves OpenAPI 3.1.0 with info.version 1.0.0", async () => {
    const doc = expectOk<{ openapi: string; info: { version: string } }>(await client().get(`${base}/openapi.json`));
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
  });
});
