// dist/schema-map.json follows the route table: every file a route answers with has exactly one schema entry.
import { describe, expect, it } from "vitest";
import { buildRouteTable } from "../../../scripts/api/contract/build-route-table.ts";
import { buildSchemaMap, patternRegex } from "../../../scripts/render/schema-table.ts";

const site = {
  siteUrl: "https://site.example",
  apiBaseUrl: "https://api.site.example",
  basePath: "/api/v2",
  cacheMaxAge: 60,
  cacheStaleWhileRevalidate: 0,
};

describe("the published path → schema table", () => {
  const table = buildRouteTable(site as never);
  const map = buildSchemaMap(table);
  const schemaOf = (path: string) => map.entries.filter((e) => patternRegex(e.pattern).test(path)).map((e) => e.schema);

  it("follows the base path and maps each kind of file to its response schema, once", () => {
    expect(schemaOf("api/v2/software/pages/all/20/40.json")).toEqual([
      "schemas/responses/software-list-response.schema.json",
    ]);
    expect(schemaOf("api/v2/software/pages/category/email-marketing/5/0.json")).toEqual([
      "schemas/responses/software-list-response.schema.json",
    ]);
    expect(schemaOf("api/v2/software/mailwave.json")).toEqual([
      "schemas/responses/software-detail-response.schema.json",
    ]);
    expect(schemaOf("api/v2/categories.json")).toEqual(["schemas/responses/category-list-response.schema.json"]);
    expect(schemaOf("api/v2/best/crm.json")).toEqual(["schemas/responses/best-in-category-response.schema.json"]);
    expect(schemaOf("api/v2/openapi.json")).toEqual(["https://spec.openapis.org/oas/3.1/schema/2022-10-07"]);
    expect(schemaOf("errors/not_found.json")).toEqual(["schemas/responses/error-response.schema.json"]);
    expect(schemaOf("errors/offset_out_of_range/category/crm.json")).toEqual([
      "schemas/responses/error-response.schema.json",
    ]);
    expect(schemaOf("index.html")).toEqual([null]);
  });

  it("maps nothing a host does not serve", () => {
    for (const path of [
      "routes.json",
      ".build-manifest.json",
      "nginx/server.conf",
      "v1/categories.json",
      "api/v2/software/pages/all/20.json",
    ]) {
      expect(schemaOf(path), path).toEqual([]);
    }
  });

  it("names every error file of the route table", () => {
    for (const { file } of Object.values(table.errors))
      expect(schemaOf(file), file).toEqual(["schemas/responses/error-response.schema.json"]);
  });
});
