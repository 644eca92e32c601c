// npm run schemas: writes schemas/**/*.json from the zod sources (content files: scripts/content/schema.ts; response
// bodies: scripts/api/contract/response-schemas.ts); --check only compares. A test fails when they drift.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod";
import { RESPONSE_SCHEMAS } from "./api/contract/response-schemas.ts";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "./cli/command.ts";
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

const options = {
  check: {
    type: "boolean",
    default: false,
    description: "write nothing; exit 1 when a file of schemas/ differs from the zod source",
  },
} as const;

export const WRITE_SCHEMAS: CommandSpec<typeof options> = {
  usage: "npm run schemas --",
  summary:
    "Generates the JSON Schemas of schemas/ (content files and response bodies) from scripts/content/schema.ts and scripts/api/contract/response-schemas.ts.",
  options,
};

if (isMain(import.meta.url)) {
  void runCommand(async () => {
    const { check } = parseCommandArgs(WRITE_SCHEMAS);
    const stale: string[] = [];
    for (const [path, text] of Object.entries(generateJsonSchemas())) {
      const target = join(schemasDir, path);
      if (check) {
        if ((await readFile(target, "utf8").catch(() => null)) !== text) stale.push(`schemas/${path}`);
        continue;
      }
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, text);
      console.log(`wrote schemas/${path}`);
    }
    if (stale.length > 0) throw new UserError(`out of date: ${stale.join(", ")} (run npm run schemas)`);
    if (check) console.log("schemas/ matches the zod source");
  });
}
