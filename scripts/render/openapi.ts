// GET /v1/openapi.json (P8): the OpenAPI 3.1 description, built from the zod source, the route table and this catalog.

import {
  DEFAULT_LIMIT,
  type ErrorId,
  layout,
  MAX_LIMIT,
  MAX_SEARCH_PREFIX,
  type RouteTable,
} from "../api/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { componentSchemas, errorSchemaWithCodes, type JsonObject, schemaRef } from "./openapi-components.ts";
import { buildExamples, type Example } from "./openapi-examples.ts";
import { API_DESCRIPTION, OPERATIONS, TAGS } from "./openapi-text.ts";
import type { OutputFile } from "./output.ts";

export const OPENAPI_VERSION = "3.1.0";
export const API_VERSION = "1.0.0";

type ErrorCodeExample = ErrorId | "offset_out_of_range";

function listQuery(table: RouteTable) {
  const route = table.routes.find((r) => r.operation === "listSoftware");
  const param = (name: string) => {
    const q = route?.query.find((p) => p.name === name);
    if (!q) throw new Error(`route table: listSoftware has no query parameter ${name}`);
    return q;
  };
  return { limit: param("limit"), offset: param("offset"), category: param("category") };
}

export function buildOpenApi(catalog: Catalog, table: RouteTable): JsonObject {
  const { site } = catalog;
  const examples = buildExamples(catalog);
  const schemas = componentSchemas();
  const query = listQuery(table);
  const slugPattern = table.routes.find((r) => r.operation === "getSoftware")?.params.slug;
  if (!slugPattern) throw new Error("route table: getSoftware has no slug pattern");
  const searchRoute = table.routes.find((r) => r.operation === "searchSoftware");
  const q = searchRoute?.query.find((p) => p.name === "q");
  const shardPattern = table.routes.find((r) => r.operation === "getSyncShard")?.params.shard;
  if (!q || !shardPattern) throw new Error("route table: no search query or sync shard pattern");

  // Header objects from the route table, so the description states exactly what every host sends.
  const constHeader = (name: string, value: string, description: string) =>
    [name, { description, required: true, schema: { type: "string", const: value } }] as const;
  const headers: Record<string, JsonObject> = Object.fromEntries([
    ...Object.entries(table.headers.all)
      .filter(([name]) => name.toLowerCase() !== "content-type") // described by each response's media type instead
      .map(([name, value]) => constHeader(name, value, "Sent on every response.")),
    ...Object.entries(table.headers.success).map(([name, value]) =>
      constHeader(name, value, "Sent on successful responses."),
    ),
    [
      "ETag",
      {
        description: "Validator of the body: send it back in `If-None-Match` to get `304 Not Modified`.",
        required: true,
        schema: { type: "string" },
      },
    ],
    constHeader("Allow", table.methods.join(", "), "Methods this read-only API serves."),
  ]);
  const headerRefs = (names: string[]) =>
    Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
  const commonNames = Object.keys(table.headers.all).filter((n) => n.toLowerCase() !== "content-type");
  const successNames = [...commonNames, ...Object.keys(table.headers.success), "ETag"];

  const ok = (description: string, schemaId: string, ex: Record<string, Example>) => ({
    description,
    headers: headerRefs(successNames),
    content: {
      "application/json": { schema: schemaRef(schemaId), ...(Object.keys(ex).length > 0 ? { examples: ex } : {}) },
    },
  });
  // An error response narrows Error.code to the codes this operation can answer with this status.
  const error = (description: string, codes: { code: string; example: ErrorCodeExample }[]) => ({
    description,
    headers: headerRefs(commonNames),
    content: {
      "application/json": {
        schema: errorSchemaWithCodes(schemas, [...new Set(codes.map((c) => c.code))]),
        examples: Object.fromEntries(codes.map((c) => [c.example, examples.errors[c.example]])),
      },
    },
  });
  const notModified = { $ref: "#/components/responses/NotModified" };
  const ifNoneMatch = { $ref: "#/components/parameters/IfNoneMatch" };
  const slugParam = (name: string, description: string) => ({
    name,
    in: "path",
    required: true,
    description,
    schema: { type: "string", pattern: slugPattern },
  });

  const op = (id: keyof typeof OPERATIONS, rest: JsonObject) => ({ operationId: id, ...OPERATIONS[id], ...rest });

  const paths = {
    "/software": {
      get: op("listSoftware", {
        parameters: [
          { $ref: "#/components/parameters/limit" },
          { $ref: "#/components/parameters/offset" },
          { $ref: "#/components/parameters/category" },
          ifNoneMatch,
        ],
        responses: {
          200: ok(
            "A page of tools in name order, with the `limit`, `offset` and `category` in effect under `meta`.",
            "SoftwareListResponse",
            examples.listSoftware,
          ),
          304: notModified,
          400: error(
            "`limit` or `offset` is invalid or given more than once, `offset` is beyond `meta.total`, or `category` was given more than once.",
            [
              { code: "invalid_limit", example: "invalid_limit" },
              { code: "invalid_offset", example: "invalid_offset" },
              { code: "offset_out_of_range", example: "offset_out_of_range" },
              { code: "category_not_found", example: "category_repeated" },
            ],
          ),
          404: error("`category` is not the slug of a category of the catalog.", [
            { code: "category_not_found", example: "category_not_found" },
          ]),
        },
      }),
    },
    "/software/{slug}": {
      get: op("getSoftware", {
        parameters: [
          slugParam(
            "slug",
            "The tool slug, matched exactly: percent-decoded first, never case-folded (`Acme-Mail` is not `acme-mail`).",
          ),
          ifNoneMatch,
        ],
        responses: {
          200: ok("The tool's full detail.", "SoftwareDetailResponse", examples.getSoftware),
          304: notModified,
          404: error(
            "No tool has this slug (`software_not_found`), or the slug segment is not valid percent-encoding (`not_found`).",
            [
              { code: "software_not_found", example: "software_not_found" },
              { code: "not_found", example: "not_found" },
            ],
          ),
        },
      }),
    },
    "/categories": {
      get: op("listCategories", {
        parameters: [ifNoneMatch],
        responses: {
          200: ok(
            "Every category with at least two tools, in name order.",
            "CategoryListResponse",
            examples.listCategories,
          ),
          304: notModified,
        },
      }),
    },
    "/best/{categorySlug}": {
      get: op("getBestInCategory", {
        parameters: [
          slugParam(
            "categorySlug",
            "A category slug (valid values come from `GET /categories`; a category with a single tool, left out of that list, answers here too).",
          ),
          ifNoneMatch,
        ],
        responses: {
          200: ok(
            "The category's tools, cheapest paid plan first, tools without a paid price last.",
            "BestInCategoryResponse",
            examples.getBestInCategory,
          ),
          304: notModified,
          404: error(
            "Unknown category, or a category with no tools; `not_found` when the segment is not valid percent-encoding.",
            [
              { code: "category_not_found", example: "category_not_found" },
              { code: "not_found", example: "not_found" },
            ],
          ),
        },
      }),
    },
    "/search": {
      get: op("searchSoftware", {
        parameters: [{ $ref: "#/components/parameters/q" }, ifNoneMatch],
        responses: {
          200: ok("The first 20 matching tools in name order, and how many match.", "SearchResponse", examples.search),
          304: notModified,
          400: error(
            "`q` is absent, empty, given more than once, longer than 32 characters, or has another character.",
            [{ code: "invalid_query", example: "invalid_query" }],
          ),
        },
      }),
    },
    "/export/catalog.json": {
      get: op("exportCatalog", {
        parameters: [ifNoneMatch],
        responses: { 200: ok("The whole catalog.", "ExportResponse", {}), 304: notModified },
      }),
    },
    "/sync/index.json": {
      get: op("getSyncRoot", {
        parameters: [ifNoneMatch],
        responses: { 200: ok("The shards of the hash tree.", "SyncRoot", {}), 304: notModified },
      }),
    },
    "/sync/{shard}": {
      get: op("getSyncShard", {
        parameters: [
          {
            name: "shard",
            in: "path",
            required: true,
            description: "A shard's name from `GET /sync/index.json`, followed by `.json`.",
            schema: { type: "string", pattern: shardPattern },
          },
          ifNoneMatch,
        ],
        responses: {
          200: ok("The shard's request targets with the hash and size of each body.", "SyncShard", {}),
          304: notModified,
          404: error("No shard has this name.", [{ code: "not_found", example: "not_found" }]),
        },
      }),
    },
    "/openapi.json": {
      get: op("getOpenApi", {
        parameters: [ifNoneMatch],
        responses: {
          200: {
            description: "This document.",
            headers: headerRefs(successNames),
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["openapi", "info", "paths"],
                  properties: {
                    openapi: { const: OPENAPI_VERSION },
                    info: { type: "object" },
                    paths: { type: "object" },
                  },
                },
              },
            },
          },
          304: notModified,
        },
      }),
    },
  };

  const server = `${site.apiBaseUrl.replace(/\/+$/, "")}${site.basePath}`;
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "Marketing Software Data API",
      version: API_VERSION,
      summary: "Read-only, public data about marketing software: tools, categories, price rankings.",
      description: API_DESCRIPTION(site.basePath),
    },
    servers: [{ url: server, description: "Public API (base address with its version path)" }],
    // Public API (contract section 5): no security scheme, stated explicitly.
    security: [],
    tags: TAGS,
    paths,
    components: {
      schemas,
      parameters: {
        limit: {
          name: "limit",
          in: "query",
          required: false,
          description:
            `Page size, 1 to ${MAX_LIMIT}. Sent as plain decimal digits: the raw value must match \`${query.limit.pattern}\` ` +
            "(no sign, no leading zero, no spaces, no percent-encoding). Any other value, the empty string included, or the parameter given twice: 400 `invalid_limit`.",
          schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
        },
        offset: {
          name: "offset",
          in: "query",
          required: false,
          description:
            `Number of tools to skip. The raw value must match \`${query.offset.pattern}\`; any other value, or the parameter given twice: 400 \`invalid_offset\`. ` +
            "`offset` equal to `meta.total` answers an empty page; greater answers 400 `offset_out_of_range`, whose hint names the total.",
          schema: { type: "integer", minimum: 0, default: Number(query.offset.default) },
        },
        category: {
          name: "category",
          in: "query",
          required: false,
          description:
            "Only tools of this category (valid values: the slugs from `GET /categories`). Unknown category: 404 `category_not_found`; " +
            "a category with no tools answers an empty page. Given twice: 400 `category_not_found`.",
          schema: { type: "string", pattern: query.category.pattern },
        },
        q: {
          name: "q",
          in: "query",
          required: true,
          description:
            `The start of a word of a tool's name: 1 to ${MAX_SEARCH_PREFIX} lower-case letters a-z or digits 0-9, sent as they are ` +
            `(the raw value must match \`${q.pattern}\`; no percent-encoding). Absent, empty, given twice or anything else: 400 \`invalid_query\`.`,
          schema: { type: "string", pattern: q.pattern },
        },
        IfNoneMatch: {
          name: "If-None-Match",
          in: "header",
          required: false,
          description:
            "An `ETag` from an earlier response (or a comma-separated list, or `*`): when it matches, the answer is `304 Not Modified`.",
          schema: { type: "string" },
        },
      },
      headers,
      responses: {
        NotModified: {
          description: "`If-None-Match` matched the current `ETag`: no body.",
          headers: headerRefs(successNames),
        },
        NotFound: {
          description: "Any path that is no endpoint, on any operation's host. Not tied to one operation.",
          headers: headerRefs(commonNames),
          content: {
            "application/json": { schema: schemaRef("Error"), examples: { not_found: examples.errors.not_found } },
          },
        },
        MethodNotAllowed: {
          description: "Any method other than GET, HEAD and OPTIONS, on any path. Not tied to one operation.",
          headers: headerRefs([...commonNames, "Allow"]),
          content: {
            "application/json": {
              schema: schemaRef("Error"),
              examples: { method_not_allowed: examples.errors.method_not_allowed },
            },
          },
        },
      },
    },
  };
}

/** Pretty-printed: people read this file. Deterministic for the same catalog (H6). */
export function renderOpenApi(catalog: Catalog, table: RouteTable): OutputFile {
  return {
    path: layout(table.basePath).openapi,
    target: `${table.basePath}/openapi.json`,
    body: `${JSON.stringify(buildOpenApi(catalog, table), null, 2)}\n`,
  };
}
