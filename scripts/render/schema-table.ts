// dist/schema-map.json: which JSON Schema checks which served file, derived from the route table so the two never
// disagree. Published so that anyone's CI can validate dist/ with any validator (npm run validate reads it too).

import {
  HOST_ERROR_STATUS,
  type HostErrorId,
  hostErrorFile,
  type Route,
  type RouteTable,
} from "../api/runtime/route-table.ts";
import type { SchemaFile } from "../schemas/schema-files.ts";
import { lazyFile, type OutputFile, routeTableKey } from "./output.ts";

export const SCHEMA_MAP_FILE = "schema-map.json";

/** The official JSON Schema of OpenAPI 3.1 documents (fetched by whoever validates with it: no copy ships here). */
export const OPENAPI_31_SCHEMA = "https://spec.openapis.org/oas/3.1/schema/2022-10-07";

/** What a successful body of each operation is. An operation missing here fails the build, not a user's CI. */
const SUCCESS_SCHEMA: Record<string, SchemaFile | typeof OPENAPI_31_SCHEMA> = {
  listSoftware: "responses/software-list-response.schema.json",
  getSoftware: "responses/software-detail-response.schema.json",
  listCategories: "responses/category-list-response.schema.json",
  getBestInCategory: "responses/best-in-category-response.schema.json",
  searchSoftware: "responses/search-response.schema.json",
  exportCatalog: "responses/export-response.schema.json",
  getSyncRoot: "responses/sync-root.schema.json",
  getSyncShard: "responses/sync-shard.schema.json",
  getSyncPiece: "responses/sync-piece.schema.json",
  getOpenApi: OPENAPI_31_SCHEMA,
};
const ERROR_SCHEMA: SchemaFile = "responses/error-response.schema.json";

export interface SchemaMapEntry {
  /** a path relative to dist/; `*` stands for any characters but `/` (one path segment or part of one) */
  pattern: string;
  /** a file of the repository's schemas/ folder, or the URL of the OpenAPI 3.1 schema; null: served, not JSON */
  schema: string | null;
  /** the operation answering with this file, or "error" */
  answers: string;
  status: number | null;
}

export interface SchemaMap {
  description: string;
  entries: SchemaMapEntry[];
}

const schemaPath = (schema: string) => (schema.startsWith("https://") ? schema : `schemas/${schema}`);

/** `a/{filter}/{limit}.json` → every shape it can take: each route variable's absent and present form, other `{x}` as `*`. */
export function globsOf(template: string, route: Pick<Route, "vars">): string[] {
  let variants = [template];
  for (const [name, v] of Object.entries(route.vars)) {
    if (!template.includes(`{${name}}`)) continue;
    variants = variants.flatMap((t) => [v.absent, v.present].map((value) => t.replaceAll(`{${name}}`, value)));
  }
  return variants.map((t) => t.replace(/\{\w+\}/g, "*"));
}

export function buildSchemaMap(table: RouteTable): SchemaMap {
  const entries: SchemaMapEntry[] = [];
  const seen = new Set<string>();
  const add = (entry: SchemaMapEntry) => {
    if (seen.has(entry.pattern)) return;
    seen.add(entry.pattern);
    entries.push(entry);
  };
  for (const route of table.routes) {
    for (const candidate of route.try) {
      const schema = candidate.status === 200 ? SUCCESS_SCHEMA[route.operation] : ERROR_SCHEMA;
      if (!schema) throw new Error(`schema table: no response schema for operation ${route.operation}`);
      for (const pattern of globsOf(candidate.file, route)) {
        add({
          pattern,
          schema: schemaPath(schema),
          answers: candidate.status === 200 ? route.operation : "error",
          status: candidate.status,
        });
      }
    }
  }
  for (const { file, status } of Object.values(table.errors))
    add({ pattern: file, schema: schemaPath(ERROR_SCHEMA), answers: "error", status });
  for (const [id, status] of Object.entries(HOST_ERROR_STATUS)) {
    add({
      pattern: hostErrorFile(table, id as HostErrorId),
      schema: schemaPath(ERROR_SCHEMA),
      answers: "error",
      status,
    });
  }
  for (const asset of table.assets) add({ pattern: asset.file, schema: null, answers: "docs page", status: 200 });
  return {
    description:
      "Which JSON Schema checks each file of this folder that a host serves: the first entry whose pattern matches " +
      "a file. pattern: a path relative to this folder, where * matches any characters except /. schema: a path in the project repository (JSON Schema 2020-12), or the " +
      "URL of the OpenAPI 3.1 schema; null for files that are not JSON. Files matching no pattern are not served.",
    entries,
  };
}

/** Made from the route table alone: kept by its key, as the host configs are. */
export function renderSchemaTable(table: RouteTable): OutputFile {
  return lazyFile(SCHEMA_MAP_FILE, routeTableKey(table), () => `${JSON.stringify(buildSchemaMap(table), null, 2)}\n`);
}

/** A pattern of the map as a regular expression over paths relative to dist/. */
export function patternRegex(pattern: string): RegExp {
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join("[^/]*")}$`);
}
