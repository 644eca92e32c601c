// The built OpenAPI description (P8): valid OpenAPI 3.1, generated from the same schemas as schemas/responses/, and
// in step with the route table, the error bodies and the built response bodies of the catalog.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMIT, type ErrorId, fill, layout, MAX_LIMIT } from "../../../scripts/api/runtime/route-table.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";
import { buildOpenapiSite, type OpenapiSite } from "../../helpers/openapi/openapi-site.ts";
import { derefIn, type Json } from "../../helpers/openapi/refs.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

describe("OpenAPI description of the built catalog", () => {
  let site: OpenapiSite;
  let text: string;
  let doc: Json;
  const readDist = async (path: string) => JSON.parse(await readFile(join(site.dist, path), "utf8")) as Json;
  const deref = (node: Json): Json => derefIn(doc)(node);
  const operations = (): [string, string, Json][] =>
    Object.entries(doc.paths as Record<string, Json>).map(([path, item]) => [
      item.get.operationId as string,
      path,
      item.get as Json,
    ]);

  beforeAll(async () => {
    site = await buildOpenapiSite();
    text = await readFile(site.openapiPath, "utf8");
    doc = JSON.parse(text) as Json;
  });
  afterAll(() => site?.remove());

  it("P8 is written at layout().openapi as OpenAPI 3.1.0, info.version 1.0.0, served from the site settings' address", () => {
    expect(site.openapiPath.endsWith(layout(site.table.basePath).openapi)).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.title).toBeTruthy();
    expect(doc.servers).toEqual([
      expect.objectContaining({
        url: `${site.catalog.site.apiBaseUrl.replace(/\/+$/, "")}${site.catalog.site.basePath}`,
      }),
    ]);
  });

  it("parses as OpenAPI 3.1: no structural problem, every $ref resolves", async () => {
    const config = await createConfig({
      extends: [],
      rules: { struct: "error", "no-unresolved-refs": "error" },
    } as never);
    const problems = await lintFromString({ source: text, absoluteRef: site.openapiPath, config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it("components.schemas are exactly the named schemas of schemas/responses/*.json (one zod source)", async () => {
    const expected: Json = {};
    for (const file of await fg("responses/*.schema.json", { cwd: join(repoRoot, "schemas") })) {
      // A schema file refers to its own $defs; in the description the same schemas live under components.
      const schema = JSON.parse(
        (await readFile(join(repoRoot, "schemas", file), "utf8")).replaceAll('"#/$defs/', '"#/components/schemas/'),
      ) as Json;
      Object.assign(expected, schema.$defs);
    }
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    expect(doc.components.schemas).toEqual(expected);
  });

  it("documents every operation of the route table, by the same operationId", () => {
    expect(
      operations()
        .map(([id]) => id)
        .sort(),
    ).toEqual(site.table.routes.map((r) => r.operation).sort());
    for (const [id, path] of operations()) {
      const route = site.table.routes.find((r) => r.operation === id)!;
      expect(path, id).toBe(route.path); // parameter names included: the contract's
    }
  });

  it("Q2 Q3 Q5 list parameters: limit integer 1–100 default 20, offset ≥ 0 default 0, category a slug, each with its strict syntax", () => {
    const list = operations().find(([id]) => id === "listSoftware")![2];
    const params: Json = Object.fromEntries((list.parameters as Json[]).map(deref).map((p) => [p.name, p]));
    const query = site.table.routes.find((r) => r.operation === "listSoftware")!.query;
    const pattern = (name: string) => query.find((q) => q.name === name)!.pattern;
    expect(params.limit.schema).toEqual({ type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT });
    expect(params.limit.description).toContain(pattern("limit"));
    expect(params.offset.schema).toEqual({ type: "integer", minimum: 0, default: 0 });
    expect(params.offset.description).toContain(pattern("offset"));
    expect(params.category.schema).toEqual({ type: "string", pattern: pattern("category") });
    for (const p of Object.values(params) as Json[]) expect(p.in === "query" ? p.required : false).toBe(false);
  });

  it("H4 every error a request can reach on a route is documented with its status and code, and nothing else", async () => {
    for (const route of site.table.routes) {
      // What a host can answer for this route: query errors, a failed path parameter or missing file (fallback),
      // a 400 candidate file, and not_found for a path segment that is not valid percent-encoding (P3).
      const reachable = new Map<string, Set<string>>();
      const add = async (status: number, file: string) => {
        const code = ((await readDist(file)) as { error: { code: string } }).error.code;
        reachable.set(String(status), (reachable.get(String(status)) ?? new Set()).add(code));
      };
      const errorFile = (id: ErrorId) => site.table.errors[id];
      for (const q of route.query)
        for (const id of [q.error, q.repeatedError, ...(q.absentError ? [q.absentError] : [])])
          await add(errorFile(id).status, errorFile(id).file);
      const hasParams = Object.keys(route.params).length > 0;
      // A candidate without variables is one file a build always writes: no request falls through it.
      const alwaysAnswered = route.try.some((c) => !c.file.includes("{"));
      if (hasParams || (route.query.length > 0 && !alwaysAnswered))
        await add(errorFile(route.fallback).status, errorFile(route.fallback).file);
      if (hasParams) await add(404, errorFile("not_found").file);
      for (const c of route.try.filter((t) => t.status !== 200)) await add(c.status, fill(c.file, { filter: "all" }));

      const op = operations().find(([id]) => id === route.operation)![2];
      const documented = new Map<string, Set<string>>();
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (!/^[45]/.test(status)) continue;
        const code = deref(response).content["application/json"].schema.properties.error.properties.code;
        documented.set(status, new Set(code.enum as string[]));
      }
      expect(documented, route.operation).toEqual(reachable);
      expect(Object.keys(op.responses), route.operation).toEqual(expect.arrayContaining(["200", "304"]));
    }
  });

  it("H2 H3 every response declares CORS and nosniff; 200 and 304 also Cache-Control and ETag, with the route table's values", () => {
    for (const [id, , op] of operations()) {
      for (const [status, raw] of Object.entries(op.responses as Json)) {
        const headers = deref(raw).headers as Record<string, Json>;
        const names = Object.keys(headers);
        const want = Object.keys(site.table.headers.all).filter((h) => h !== "Content-Type");
        if (status === "200" || status === "304") want.push(...Object.keys(site.table.headers.success), "ETag");
        expect(names.sort(), `${id} ${status}`).toEqual(want.sort());
        for (const [name, value] of Object.entries({ ...site.table.headers.all, ...site.table.headers.success })) {
          if (headers[name]) expect(deref(headers[name]).schema.const, `${id} ${status} ${name}`).toBe(value);
        }
      }
    }
  });

  it("examples are the built bodies of this catalog (lists cut to their first items, meta kept)", async () => {
    const files = layout(site.table.basePath);
    const media = (opId: string, status: string) =>
      deref(operations().find(([id]) => id === opId)![2].responses[status]).content["application/json"];
    const list = media("listSoftware", "200").examples;
    expect(list.firstPage.value).toEqual(await readDist(fill(files.page, { filter: "all", limit: 2, offset: 0 })));
    const category = list.byCategory.value.meta.category as string;
    expect(list.byCategory.value).toEqual(
      await readDist(fill(files.page, { filter: `category/${category}`, limit: 2, offset: 0 })),
    );
    const tool = media("getSoftware", "200").examples.firstTool.value;
    expect(tool.data.slug).toBe(site.catalog.tools[0]!.slug);
    expect(tool).toEqual(await readDist(fill(files.tool, { slug: tool.data.slug })));
    const categories = await readDist(files.categories);
    const catExample = media("listCategories", "200").examples.categories.value;
    expect(catExample.meta).toEqual(categories.meta);
    expect(categories.data.slice(0, catExample.data.length)).toEqual(catExample.data);
    const best = media("getBestInCategory", "200").examples.firstCategory.value;
    const bestBuilt = await readDist(fill(files.best, { categorySlug: best.meta.category }));
    expect(best.meta).toEqual(bestBuilt.meta);
    expect(bestBuilt.data.slice(0, best.data.length)).toEqual(best.data);
    for (const [status, byCode] of Object.entries({
      "400": media("listSoftware", "400").examples,
      "404": media("getSoftware", "404").examples,
    })) {
      for (const [name, example] of Object.entries(byCode as Record<string, Json>)) {
        const file =
          name === "offset_out_of_range"
            ? fill(files.offsetOutOfRange, { filter: "all" })
            : site.table.errors[name as ErrorId].file;
        expect(example.value, `${status} ${name}`).toEqual(await readDist(file));
      }
    }
  });

  it("every example validates against its response schema", () => {
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    let checked = 0;
    for (const [id, , op] of operations()) {
      for (const [status, raw] of Object.entries(op.responses as Json)) {
        const content = deref(raw).content?.["application/json"] as Json | undefined;
        if (!content?.examples) continue;
        // The schema's $refs point into components: validate inside a root that carries them.
        const validate = ajv.compile({ ...content.schema, components: { schemas: doc.components.schemas } });
        for (const [name, example] of Object.entries(content.examples as Record<string, Json>)) {
          const ok = validate(example.value);
          expect(ok, `${id} ${status} ${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });
});
