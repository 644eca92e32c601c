// The resolver over the route table, with no host around it: a request line in, a decision out. Pure: the files of a
// build are a set in memory, looked up by the probe.
import { describe, expect, it } from "vitest";
import { buildRouteTable } from "../../../../scripts/api/contract/build-route-table.ts";
import {
  createResolver,
  type Decision,
  decisionOf,
  type Probe,
} from "../../../../scripts/api/runtime/resolve-request.ts";
import { ERROR_STATUS, type ErrorId } from "../../../../scripts/api/runtime/route-table.ts";

const site = {
  siteUrl: "https://site.example",
  apiBaseUrl: "https://api.site.example",
  basePath: "/v1",
  cacheMaxAge: 60,
  cacheStaleWhileRevalidate: 0,
};
const table = buildRouteTable(site);
const resolver = createResolver(table);

/** A small build: tools acme and beta-mail, categories crm (2 tools) and empty (none), word prefixes "ac" and "acme". */
const BUILT = new Set([
  "index.html",
  "v1/software/pages/all/20/0.json",
  "v1/software/pages/all/5/0.json",
  "v1/software/pages/all/100/0.json",
  "v1/software/pages/all/20/2.json",
  "v1/software/pages/category/crm/20/0.json",
  "v1/software/pages/category/crm/1/1.json",
  "v1/software/pages/category/empty/20/0.json",
  "errors/offset_out_of_range/all.json",
  "errors/offset_out_of_range/category/crm.json",
  "errors/offset_out_of_range/category/empty.json",
  "v1/software/acme.json",
  "v1/software/beta-mail.json",
  "v1/categories.json",
  "v1/best/crm.json",
  "v1/search/ac.json",
  "v1/search/acme.json",
  "v1/search/_none.json",
  "v1/export/catalog.json",
  "v1/sync/index.json",
  "v1/sync/best-0.json",
  `v1/sync/pieces/${"ab".repeat(32)}.json`,
  "v1/openapi.json",
]);
const probe: Probe<string> = (file) => (BUILT.has(file) ? `bytes of ${file}` : null);

const answer = (target: string, method = "GET"): Decision =>
  decisionOf(
    resolver.resolve(method, target, probe) as Exclude<ReturnType<typeof resolver.resolve<string>>, Promise<unknown>>,
  );
const file = (path: string, status: 200 | 400 = 200): Decision => ({
  kind: "file",
  file: path,
  status,
  success: status === 200,
});
const error = (id: ErrorId): Decision => ({ kind: "error", id });

describe("resolve-request: every operation of the route table", () => {
  const cases: [operation: string, target: string, answer: Decision][] = [
    ["listSoftware", "/v1/software", file("v1/software/pages/all/20/0.json")],
    ["getSoftware", "/v1/software/acme", file("v1/software/acme.json")],
    ["listCategories", "/v1/categories", file("v1/categories.json")],
    ["getBestInCategory", "/v1/best/crm", file("v1/best/crm.json")],
    ["searchSoftware", "/v1/search?q=acme", file("v1/search/acme.json")],
    ["exportCatalog", "/v1/export/catalog.json", file("v1/export/catalog.json")],
    ["getSyncRoot", "/v1/sync/index.json", file("v1/sync/index.json")],
    ["getSyncShard", "/v1/sync/best-0.json", file("v1/sync/best-0.json")],
    ["getSyncPiece", `/v1/sync/pieces/${"ab".repeat(32)}.json`, file(`v1/sync/pieces/${"ab".repeat(32)}.json`)],
    ["getOpenApi", "/v1/openapi.json", file("v1/openapi.json")],
  ];
  it.each(cases)("%s: GET %s answers its file", (_operation, target, expected) => {
    expect(answer(target)).toEqual(expected);
  });

  it("covers every operation of the table", () => {
    expect(cases.map(([operation]) => operation)).toEqual(table.routes.map((r) => r.operation));
  });

  it("HEAD decides as GET; OPTIONS is the preflight; any other method is 405 whatever the path", () => {
    expect(answer("/v1/software/acme", "HEAD")).toEqual(answer("/v1/software/acme"));
    expect(answer("/v1/software/acme", "OPTIONS")).toEqual({ kind: "preflight" });
    expect(answer("/no/such/path", "OPTIONS")).toEqual({ kind: "preflight" });
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "get"])
      expect(answer("/no/such/path", method), method).toEqual(error("method_not_allowed"));
  });

  it("the docs page is an asset at its exact path, with its own type; nothing else outside the base path answers", () => {
    expect(answer("/")).toEqual({ ...file("index.html"), contentType: "text/html; charset=utf-8" });
    expect(answer("/docs/redoc.standalone.js")).toEqual(error("not_found")); // not in this build: the probe says so
    expect(answer("/index.html")).toEqual(error("not_found"));
    expect(answer("/software")).toEqual(error("not_found"));
    expect(answer("/v2/software")).toEqual(error("not_found"));
    // a piece no build wrote, and a name that is no piece's
    expect(answer(`/v1/sync/pieces/${"cd".repeat(32)}.json`)).toEqual(error("not_found"));
    expect(answer(`/v1/sync/pieces/${"AB".repeat(32)}.json`)).toEqual(error("not_found"));
  });

  it("an absolute-form target is answered by its path and query", () => {
    expect(answer("http://api.site.example/v1/categories")).toEqual(file("v1/categories.json"));
    expect(answer("https://api.site.example/v1/software?limit=5")).toEqual(file("v1/software/pages/all/5/0.json"));
    expect(answer("*")).toEqual(error("not_found"));
  });

  it("an async probe gives the same decisions, with what it found", async () => {
    const later: Probe<string> = async (f) => probe(f);
    const r = await resolver.resolve("GET", "/v1/software/acme", later);
    expect(r).toEqual({ ...file("v1/software/acme.json"), found: "bytes of v1/software/acme.json" });
  });
});

describe("resolve-request: every error code", () => {
  const cases: [ErrorId | "offset_out_of_range", string, Decision][] = [
    ["not_found", "/v1/nothing", error("not_found")],
    ["method_not_allowed", "DELETE /v1/software", error("method_not_allowed")],
    ["invalid_limit", "/v1/software?limit=0", error("invalid_limit")],
    ["invalid_offset", "/v1/software?offset=-1", error("invalid_offset")],
    ["software_not_found", "/v1/software/nope", error("software_not_found")],
    ["category_not_found", "/v1/software?category=nope", error("category_not_found")],
    ["category_repeated", "/v1/software?category=crm&category=crm", error("category_repeated")],
    ["invalid_query", "/v1/search", error("invalid_query")],
    ["offset_out_of_range", "/v1/software?offset=3", file("errors/offset_out_of_range/all.json", 400)],
  ];
  it.each(cases)("%s: %s", (_id, request, expected) => {
    const [method, target] = request.includes(" ") ? request.split(" ") : ["GET", request];
    expect(answer(target!, method)).toEqual(expected);
  });

  it("covers every error id of the table, and the per-list offset_out_of_range", () => {
    expect(cases.map(([id]) => id).sort()).toEqual([...Object.keys(ERROR_STATUS), "offset_out_of_range"].sort());
  });

  it("/best/ of an unknown category and of a category with no tools (no file) is category_not_found", () => {
    expect(answer("/v1/best/nope")).toEqual(error("category_not_found"));
    expect(answer("/v1/best/empty")).toEqual(error("category_not_found"));
  });

  it("a path parameter that fails its pattern answers the operation's fallback, not a file lookup", () => {
    expect(answer("/v1/software/-acme")).toEqual(error("software_not_found"));
    expect(answer("/v1/best/crm_")).toEqual(error("category_not_found"));
    expect(answer("/v1/sync/best-0")).toEqual(error("not_found")); // a shard's name ends in .json
    expect(answer("/v1/sync/nope.json")).toEqual(error("not_found"));
  });

  it("search: a valid prefix no name has shares the empty answer; absent, empty, upper-case or too long is invalid_query", () => {
    expect(answer("/v1/search?q=ac")).toEqual(file("v1/search/ac.json"));
    expect(answer("/v1/search?q=zz")).toEqual(file("v1/search/_none.json"));
    expect(answer(`/v1/search?q=${"a".repeat(32)}`)).toEqual(file("v1/search/_none.json"));
    for (const q of ["", "Acme", "ac%6de", "a-b", "a".repeat(33)])
      expect(answer(`/v1/search?q=${q}`), q).toEqual(error("invalid_query"));
    expect(answer("/v1/search?q")).toEqual(error("invalid_query"));
  });
});

describe("resolve-request: query parameters of /software", () => {
  it("checks limit, then the form of offset, then category, then the range of offset: the first failure answers", () => {
    expect(answer("/v1/software?offset=x&category=nope&limit=0")).toEqual(error("invalid_limit"));
    expect(answer("/v1/software?category=nope&offset=x")).toEqual(error("invalid_offset"));
    expect(answer("/v1/software?offset=99&category=nope")).toEqual(error("category_not_found"));
    expect(answer("/v1/software?offset=99&category=crm")).toEqual(
      file("errors/offset_out_of_range/category/crm.json", 400),
    );
  });

  it("defaults: limit 20, offset 0, no filter; given values pick the page", () => {
    expect(answer("/v1/software?limit=20&offset=0")).toEqual(answer("/v1/software"));
    expect(answer("/v1/software?limit=5")).toEqual(file("v1/software/pages/all/5/0.json"));
    expect(answer("/v1/software?offset=2")).toEqual(file("v1/software/pages/all/20/2.json"));
    expect(answer("/v1/software?category=crm&limit=1&offset=1")).toEqual(
      file("v1/software/pages/category/crm/1/1.json"),
    );
    expect(answer("/v1/software?category=empty")).toEqual(file("v1/software/pages/category/empty/20/0.json"));
  });

  it("a parameter given twice answers its own code, even with the same value twice", () => {
    expect(answer("/v1/software?limit=5&limit=5")).toEqual(error("invalid_limit"));
    expect(answer("/v1/software?offset=0&offset=1")).toEqual(error("invalid_offset"));
    expect(answer("/v1/software?category=crm&category=empty")).toEqual(error("category_repeated"));
    expect(answer("/v1/search?q=ac&q=ac")).toEqual(error("invalid_query"));
  });

  it("unknown parameters are ignored, and names are case-sensitive", () => {
    expect(answer("/v1/software?foo=bar&sort=rating")).toEqual(answer("/v1/software"));
    expect(answer("/v1/software?LIMIT=0&Offset=x&Category=nope")).toEqual(answer("/v1/software"));
    expect(answer("/v1/categories?limit=0")).toEqual(file("v1/categories.json"));
    expect(answer("/v1/search?q=acme&limit=0")).toEqual(file("v1/search/acme.json"));
  });

  it("values are taken as sent: never percent-decoded, no sign, no leading zero, no spaces, not empty", () => {
    for (const limit of ["%31", "+5", "05", "101", "1.0", "%205", "", "5%20"])
      expect(answer(`/v1/software?limit=${limit}`), limit).toEqual(error("invalid_limit"));
    expect(answer("/v1/software?limit")).toEqual(error("invalid_limit"));
    expect(answer("/v1/software?limit=100")).toEqual(file("v1/software/pages/all/100/0.json"));
    for (const offset of ["%30", "-0", "00", "1e3", ""])
      expect(answer(`/v1/software?offset=${offset}`), offset).toEqual(error("invalid_offset"));
    expect(answer("/v1/software?category=cr%6d")).toEqual(error("category_not_found"));
  });
});

describe("resolve-request: paths", () => {
  it("one trailing slash is ignored; two are no path of the API", () => {
    expect(answer("/v1/software/")).toEqual(answer("/v1/software"));
    expect(answer("/v1/software/acme/")).toEqual(file("v1/software/acme.json"));
    expect(answer("/v1/software/?limit=5")).toEqual(file("v1/software/pages/all/5/0.json"));
    expect(answer("/v1/software//")).toEqual(error("not_found"));
    expect(answer("/v1//software")).toEqual(error("not_found"));
  });

  it("segments are percent-decoded before matching; invalid percent-encoding is not_found", () => {
    expect(answer("/v1/software/%61cme")).toEqual(file("v1/software/acme.json"));
    expect(answer("/%761/%63ategories")).toEqual(file("v1/categories.json"));
    expect(answer("/v1/best/%63rm")).toEqual(file("v1/best/crm.json"));
    expect(answer("/v1/software/%E0%A4%A")).toEqual(error("not_found"));
    expect(answer("/v1/software/%zz")).toEqual(error("not_found"));
    expect(answer("/v1/software%2Facme")).toEqual(error("not_found")); // a decoded slash is inside one segment
  });

  it("names match exactly: no case folding of slugs, literal segments or the base path", () => {
    expect(answer("/v1/software/Acme")).toEqual(error("software_not_found"));
    expect(answer("/v1/best/CRM")).toEqual(error("category_not_found"));
    expect(answer("/v1/Software")).toEqual(error("not_found"));
    expect(answer("/V1/software")).toEqual(error("not_found"));
    expect(answer("/v1/OPENAPI.json")).toEqual(error("not_found"));
  });
});
