// schemas/**/*.json from the zod sources (content files: scripts/content/schema.ts; response bodies:
// scripts/api/contract/response-schemas.ts), written or compared by `npm run schemas` (scripts/commands/schemas.ts).
// A test fails when they drift.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod";
import { RESPONSE_SCHEMAS } from "./api/contract/response-schemas.ts";
import { CONTENT_SCHEMAS } from "./content/schema.ts";
import type { SchemaFile } from "./schemas/schema-files.ts";

/** Every generated JSON Schema file: its path under schemas/ and its zod source. */
const SCHEMA_SOURCES = { ...CONTENT_SCHEMAS, ...RESPONSE_SCHEMAS } as const satisfies Record<SchemaFile, z.ZodType>;

/** JSON Schema 2020-12 text of every schema file. Content is read as input (defaults optional); responses are output. */
export function generateJsonSchemas(): Record<SchemaFile, string> {
  const out = {} as Record<SchemaFile, string>;
  for (const [file, source] of Object.entries(SCHEMA_SOURCES) as [SchemaFile, z.ZodType][]) {
    const io = file.startsWith("content/") ? "input" : "output";
    out[file] = `${JSON.stringify(z.toJSONSchema(source, { target: "draft-2020-12", io }), null, 2)}\n`;
  }
  return out;
}

const schemasDir = fileURLToPath(new URL("../schemas/", import.meta.url));

/** Writes every schema file of schemas/ from its zod source, telling `onWritten` each one as `schemas/<path>`. */
export async function writeJsonSchemas(onWritten: (file: string) => void): Promise<void> {
  for (const [path, text] of Object.entries(generateJsonSchemas())) {
    const target = join(schemasDir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
    onWritten(`schemas/${path}`);
  }
}

/** The files of schemas/ that differ from their zod source (or are missing), as `schemas/<path>`; writes nothing. */
export async function staleJsonSchemas(): Promise<string[]> {
  const stale: string[] = [];
  for (const [path, text] of Object.entries(generateJsonSchemas()))
    if ((await readFile(join(schemasDir, path), "utf8").catch(() => null)) !== text) stale.push(`schemas/${path}`);
  return stale;
}
