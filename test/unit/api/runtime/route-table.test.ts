import { describe, expect, it } from "vitest";
import { buildRouteTable } from "../../../../scripts/api/contract/build-route-table.ts";
import { createResolver } from "../../../../scripts/api/runtime/resolve-request.ts";
import { compileTemplate, fill } from "../../../../scripts/api/runtime/route-table.ts";

const site = {
  siteUrl: "https://site.example",
  apiBaseUrl: "https://api.site.example",
  basePath: "/v1",
  cacheMaxAge: 60,
  cacheStaleWhileRevalidate: 0,
};

describe("route-table templates: one implementation for the build and every host", () => {
  it("fills every placeholder, repeated ones included", () => {
    expect(fill("v1/{a}/{b}/{a}.json", { a: "x", b: 2 })).toBe("v1/x/2/x.json");
    expect(compileTemplate("{filter}/{limit}")({ filter: "all", limit: 20 })).toBe("all/20");
  });

  it("filling without a value throws instead of writing 'undefined' into a path", () => {
    expect(() => fill("v1/{slug}.json", {})).toThrow("template v1/{slug}.json: no value for {slug}");
  });

  it("a template naming a variable the caller never provides is refused when compiled", () => {
    expect(() => compileTemplate("{filter}/{limit}", ["filter"])).toThrow("no value for {limit}");
  });

  it("a route table whose candidate file names an optional parameter is refused when the server starts", () => {
    const table = buildRouteTable(site);
    // category has no default: absent, it would leave {category} unfilled mid-request.
    table.routes[0]!.try[0]!.file = "v1/software/pages/{category}/{limit}/{offset}.json";
    expect(() => createResolver(table)).toThrow("no value for {category}");
    expect(() => createResolver(buildRouteTable(site))).not.toThrow();
  });
});
