// components.schemas of the OpenAPI description: the very JSON Schemas of schemas/responses/, never a copy kept by hand.
import { readSchemaFile, SCHEMA_FILE_NAMES } from "../schemas/schema-files.ts";

export type JsonObject = Record<string, unknown>;

export const COMPONENT_REF = "#/components/schemas/";

export const responseSchemaFiles = SCHEMA_FILE_NAMES.filter((f) => f.startsWith("responses/"));

/** `#/$defs/X` (a JSON Schema file's own definitions) → `#/components/schemas/X`, everywhere in a schema. */
export function rebaseRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebaseRefs);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")
        ? COMPONENT_REF + v.slice("#/$defs/".length)
        : rebaseRefs(v),
    ]),
  );
}

/** Every named schema ($defs entry) of every response schema file, keyed by its zod meta id, in a stable order. */
export function componentSchemas(): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const file of responseSchemaFiles) {
    const defs = (readSchemaFile(file).$defs ?? {}) as Record<string, JsonObject>;
    for (const [id, schema] of Object.entries(defs)) {
      const rebased = rebaseRefs(schema) as JsonObject;
      const known = out[id];
      // Two files naming the same id must mean the same schema, or a reference would silently change meaning.
      if (known && JSON.stringify(known) !== JSON.stringify(rebased))
        throw new Error(`schema id ${id} differs between response schema files`);
      out[id] = rebased;
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const schemaRef = (id: string) => ({ $ref: COMPONENT_REF + id });

/**
 * The Error schema with `error.code` narrowed to the codes one response can carry: derived from the generated
 * component (a copy with one enum replaced), so it can never drift from the zod source.
 */
export function errorSchemaWithCodes(schemas: Record<string, JsonObject>, codes: string[]): JsonObject {
  const copy = structuredClone(schemas.Error) as
    | { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }
    | undefined;
  const code = copy?.properties?.error?.properties?.code;
  if (!code?.enum) throw new Error("the Error schema has no error.code enum");
  const unknown = codes.filter((c) => !code.enum!.includes(c));
  if (unknown.length > 0) throw new Error(`not error codes of the Error schema: ${unknown.join(", ")}`);
  code.enum = codes;
  return copy as JsonObject;
}
