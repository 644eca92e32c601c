// GET /v1/openapi.json (P8): the OpenAPI 3.1 description, built from the zod source, the route table and this catalog.

import {
  API_VERSION,
  ERRORS,
  errorStatus,
  type Operation,
  operationList,
  type QueryParameter,
} from "../api/operations.ts";
import type { RouteLayout, RouteTable } from "../api/runtime/route-table.ts";
import { sha1 } from "../launcher/file-hashes.cjs";
import type { Catalog } from "../model/derive.ts";
import { componentSchemas, errorSchemaWithCodes, type JsonObject, schemaRef } from "./openapi-components.ts";
import { type ApiExamples, buildExamples, type Example } from "./openapi-examples.ts";
import { API_DESCRIPTION, TAGS } from "./openapi-text.ts";
import { lazyFile, type OutputFile, routeTableKey } from "./output.ts";

export const OPENAPI_VERSION = "3.1.0";
export { API_VERSION };

/** A query parameter as OpenAPI types it: an integer range with its default, or a string of the raw pattern. */
function queryParameter(p: QueryParameter): JsonObject {
  const schema =
    p.type.type === "integer"
      ? { ...p.type, ...(p.default === null ? {} : { default: Number(p.default) }) }
      : { type: "string", pattern: p.pattern };
  return {
    name: p.name,
    in: "query",
    required: p.absentError !== undefined,
    description: p.description,
    schema,
  };
}

export function buildOpenApi(catalog: Catalog, table: RouteTable, examples: ApiExamples): JsonObject {
  const { site } = catalog;
  const schemas = componentSchemas();
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
  const error = ({ status, why, errors }: Operation["errorResponses"][number]) => {
    const wrong = errors.filter((id) => errorStatus(id) !== status);
    if (wrong.length > 0) throw new Error(`operations: ${wrong.join(", ")} do not answer ${status}`);
    return {
      description: why,
      headers: headerRefs(commonNames),
      content: {
        "application/json": {
          schema: errorSchemaWithCodes(schemas, [...new Set(errors.map((id) => ERRORS[id].code))]),
          examples: Object.fromEntries(errors.map((id) => [id, examples.errors[id]])),
        },
      },
    };
  };
  const notModified = { $ref: "#/components/responses/NotModified" };
  const ifNoneMatch = { $ref: "#/components/parameters/IfNoneMatch" };
  // The description itself has no response schema file: what it is, is said here.
  const openApiDocument = {
    description: "",
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
  };
  const success = (id: string, { description, schema }: Operation["success"]) =>
    schema === null
      ? { ...openApiDocument, description }
      : ok(description, schema, examples.operations[id as keyof typeof examples.operations] ?? {});

  // Query parameters are described once, under components; path parameters where their operation is.
  const parameters: Record<string, JsonObject> = {};
  const paths = Object.fromEntries(
    operationList().map(([operationId, op]) => {
      for (const p of op.query) parameters[p.name] = queryParameter(p);
      const { tags, summary, description } = op;
      return [
        op.path,
        {
          get: {
            operationId,
            tags,
            summary,
            description,
            parameters: [
              ...Object.entries(op.pathParams).map(([name, p]) => ({
                name,
                in: "path",
                required: true,
                description: p.description,
                schema: { type: "string", pattern: p.pattern },
              })),
              ...op.query.map((p) => ({ $ref: `#/components/parameters/${p.name}` })),
              ifNoneMatch,
            ],
            responses: {
              200: success(operationId, op.success),
              304: notModified,
              ...Object.fromEntries(op.errorResponses.map((r) => [r.status, error(r)])),
            },
          },
        },
      ];
    }),
  );

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
        ...parameters,
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

/**
 * Pretty-printed: people read this file. Deterministic for the same catalog (H6). Made from the code, the route
 * table, the site settings and the examples alone, so those are its key: a price edit outside the examples keeps it.
 */
export function renderOpenApi(catalog: Catalog, table: RouteTable, paths: RouteLayout): OutputFile {
  const examples = buildExamples(catalog, paths);
  const key = `openapi ${routeTableKey(table)} ${sha1(JSON.stringify({ site: catalog.site, examples }))}`;
  return lazyFile(
    paths.openapi,
    key,
    () => `${JSON.stringify(buildOpenApi(catalog, table, examples), null, 2)}\n`,
    undefined,
    `${table.basePath}/openapi.json`,
  );
}
