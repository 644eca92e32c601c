// npm run schemas: writes schemas/**/*.json from the zod source; --check only compares. A test fails when they drift.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isMain, parseCommandArgs, runCommand, UserError, type CommandSpec } from "../cli/command.ts";
import { generateJsonSchemas } from "./json-schemas.ts";

const schemasDir = fileURLToPath(new URL("../../schemas/", import.meta.url));

const options = {
  check: { type: "boolean", default: false, description: "write nothing; exit 1 when a file of schemas/ differs from the zod source" },
} as const;

export const WRITE_SCHEMAS: CommandSpec<typeof options> = {
  usage: "npm run schemas --",
  summary: "Generates the JSON Schemas of schemas/ (content files and response bodies) from scripts/content/schema.ts.",
  options,
};

if (isMain(import.meta.url)) {
  await runCommand(async () => {
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
