// The generated JSON Schema files of schemas/ (written by `npm run schemas` from the zod source, schema.ts) and how
// to read them. Zod-free: the build validates and describes with these files, and loading zod would slow its start.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const SCHEMA_FILE_NAMES = [
  "content/site.schema.json",
  "content/category.schema.json",
  "content/tool.schema.json",
  "items/software-summary.schema.json",
  "items/software-detail.schema.json",
  "items/category.schema.json",
  "items/ranked-tool.schema.json",
  "responses/software-list-response.schema.json",
  "responses/software-detail-response.schema.json",
  "responses/category-list-response.schema.json",
  "responses/best-in-category-response.schema.json",
  "responses/error-response.schema.json",
  "items/exported-software.schema.json",
  "items/exported-category.schema.json",
  "responses/search-response.schema.json",
  "responses/export-response.schema.json",
  "responses/sync-root.schema.json",
  "responses/sync-shard.schema.json",
  "responses/sync-piece.schema.json",
] as const;
export type SchemaFile = (typeof SCHEMA_FILE_NAMES)[number];

const schemasDir = fileURLToPath(new URL("../../schemas/", import.meta.url));

export const schemaFilePath = (file: SchemaFile) => schemasDir + file;

/** One schema file as committed (a test keeps it equal to what the zod source generates). */
export function readSchemaFile(file: SchemaFile): Record<string, unknown> {
  return JSON.parse(readFileSync(schemaFilePath(file), "utf8")) as Record<string, unknown>;
}
