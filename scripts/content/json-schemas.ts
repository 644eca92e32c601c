// JSON Schema 2020-12 text of every schema file, generated from the zod source.
import * as z from "zod";
import { SCHEMA_FILES, type SchemaFile } from "./schema.ts";

export function jsonSchemaOf(file: SchemaFile): Record<string, unknown> {
  // Content is read as input (defaults optional); responses are what we emit (output).
  const io = file.startsWith("content/") ? "input" : "output";
  return { ...z.toJSONSchema(SCHEMA_FILES[file], { target: "draft-2020-12", io }) };
}

export function generateJsonSchemas(): Record<SchemaFile, string> {
  const out = {} as Record<SchemaFile, string>;
  for (const file of Object.keys(SCHEMA_FILES) as SchemaFile[]) {
    out[file] = JSON.stringify(jsonSchemaOf(file), null, 2) + "\n";
  }
  return out;
}
