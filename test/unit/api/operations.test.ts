// The route table and openapi.json are both generated from scripts/api/operations.ts: this test fails when they name
// different paths, parameters or error codes for any operation. Built in memory from the tiny fixture (no dist/).

import { beforeAll, describe, expect, it } from "vitest";
import { buildRouteTable } from "../../../scripts/api/contract/build-route-table.ts";
import { ERRORS, errorStatus, OPERATIONS } from "../../../scripts/api/operations.ts";
import { ALL_FILTER, fill, layout, type RouteTable } from "../../../scripts/api/runtime/route-table.ts";
import { loadContent } from "../../../scripts/content/load.ts";
import { validateContent } from "../../../scripts/content/validate.ts";
import { type Catalog, deriveCatalog } from "../../../scripts/model/derive.ts";
import { renderErrors } from "../../../scripts/render/errors.ts";
import { buildOpenApi } from "../../../scripts/render/openapi.ts";
import { buildExamples } from "../../../scripts/render/openapi-examples.ts";
import { fixture } from "../../helpers/fs/dirs.ts";
import { derefIn, type Json } from "../../helpers/openapi/refs.ts";

/** One operation as a document names it: path, parameters (name, where, pattern, required), `status code` pairs. */
interface Named {
  path: string;
  params: string[];
  errors: string[];
}

/** What the route table says of each operation. An error is named when some request can get it. */
function namedByTable(table: RouteTable, catalog: Catalog): Record<string, Named> {
  const bodies = new Map([...renderErrors(catalog, layout(table.basePath))].map((f) => [f.path, String(f.body)]));
  const codeOf = (file: string) => (JSON.parse(bodies.get(file)!) as { error: { code: string } }).error.code;
  const byId = (id: keyof RouteTable["errors"]) => `${table.errors[id].status} ${codeOf(table.errors[id].file)}`;
  return Object.fromEntries(
    table.routes.map((route) => {
      const hasParams = Object.keys(route.params).length > 0;
      // A candidate without a placeholder is one file every build writes: no request falls through it.
      const last = route.try[route.try.length - 1]!;
      const errors = [
        ...route.query.flatMap((q) => [q.error, q.repeatedError, ...(q.absentError ? [q.absentError] : [])].map(byId)),
        ...(hasParams || last.file.includes("{") ? [byId(route.fallback)] : []),
        ...(hasParams ? [byId("not_found")] : []), // a segment that is not valid percent-encoding
        ...route.try
          .filter((c) => c.status !== 200)
          .map((c) => `${c.status} ${codeOf(fill(c.file, { filter: ALL_FILTER }))}`),
      ];
      const params = [
        ...Object.entries(route.params).map(([name, pattern]) => `path ${name} ${pattern} required`),
        ...route.query.map((q) => `query ${q.name} ${q.pattern} ${q.absentError ? "required" : "optional"}`),
      ];
      return [route.operation, { path: route.path, params, errors: [...new Set(errors)].sort() }];
    }),
  );
}

/** What openapi.json says of each operation. */
function namedByOpenApi(doc: Json): Record<string, Named> {
  const deref = (node: Json): Json => derefIn(doc)(node);
  return Object.fromEntries(
    Object.entries(doc.paths as Record<string, Json>).map(([path, item]) => {
      const op = item.get as Json;
      const params = (op.parameters as Json[])
        .map(deref)
        .filter((p) => p.in !== "header")
        .map((p) => {
          // An integer parameter states its raw syntax in its description: the pattern is the one quoted there.
          const pattern = p.schema.pattern ?? /`(\^[^`]*\$)`/.exec(p.description)?.[1];
          return `${p.in} ${p.name} ${pattern} ${p.required ? "required" : "optional"}`;
        });
      const errors = Object.entries(op.responses as Json)
        .filter(([status]) => /^[45]/.test(status))
        .flatMap(([status, response]) =>
          (deref(response).content["application/json"].schema.properties.error.properties.code.enum as string[]).map(
            (code) => `${status} ${code}`,
          ),
        );
      return [op.operationId as string, { path, params, errors: [...new Set(errors)].sort() }];
    }),
  );
}

describe("the route table and openapi.json, both generated from the operations' description", () => {
  let catalog: Catalog;
  let table: RouteTable;
  let doc: Json;
  beforeAll(async () => {
    const validation = validateContent(await loadContent(fixture("tiny")));
    if (!validation.ok) throw new Error("the tiny fixture does not validate");
    catalog = deriveCatalog(validation.content);
    table = buildRouteTable(catalog.site);
    const examples = buildExamples(catalog, layout(table.basePath));
    doc = JSON.parse(JSON.stringify(buildOpenApi(catalog, table, examples))) as Json;
  });

  it("name the same operations, each with the same path, parameters and error codes (status and code)", () => {
    const fromTable = namedByTable(table, catalog);
    expect(Object.keys(fromTable)).toEqual(Object.keys(OPERATIONS));
    expect(namedByOpenApi(doc)).toEqual(fromTable);
    // The comparison has something to compare: each way a list request fails, the per-list offset body included.
    expect(fromTable.listSoftware!.errors).toEqual(
      expect.arrayContaining([
        "400 category_not_found",
        "400 invalid_limit",
        "400 invalid_offset",
        "400 offset_out_of_range",
        "404 category_not_found",
      ]),
    );
  });

  it("name every path parameter as the contract does: /best/{categorySlug}, /software/{slug}", () => {
    expect(table.routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(["/software/{slug}", "/best/{categorySlug}"]),
    );
    expect(Object.keys(doc.paths)).toEqual(table.routes.map((r) => r.path));
  });

  it("the comparison sees a drift: a table renaming a parameter, or answering an undocumented error, differs", () => {
    const renamed = structuredClone(table);
    const best = renamed.routes.find((r) => r.operation === "getBestInCategory")!;
    best.path = "/best/{slug}";
    best.params = { slug: best.params.categorySlug! };
    expect(namedByOpenApi(doc)).not.toEqual(namedByTable(renamed, catalog));

    const extraError = structuredClone(table);
    extraError.routes.find((r) => r.operation === "listSoftware")!.query[0]!.repeatedError = "invalid_query";
    expect(namedByOpenApi(doc)).not.toEqual(namedByTable(extraError, catalog));
  });

  it("every error an operation documents has words, and its status is the error's own", () => {
    for (const [id, op] of Object.entries(OPERATIONS))
      for (const response of op.errorResponses)
        for (const error of response.errors) {
          expect(ERRORS[error].message, `${id}: ${error}`).toBeTruthy();
          expect(errorStatus(error), `${id}: ${error}`).toBe(response.status);
        }
  });
});
