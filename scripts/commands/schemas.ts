// npm run schemas: the flags, then schemas/ written from the zod sources, or with --check only compared
// (scripts/write-schemas.ts).
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { staleJsonSchemas, writeJsonSchemas } from "../write-schemas.ts";

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

async function main(): Promise<void> {
  const { check } = parseCommandArgs(WRITE_SCHEMAS);
  if (!check) {
    await writeJsonSchemas((file) => console.log(`wrote ${file}`));
    return;
  }
  const stale = await staleJsonSchemas();
  if (stale.length > 0) throw new UserError(`out of date: ${stale.join(", ")} (run npm run schemas)`);
  console.log("schemas/ matches the zod source");
}

if (isMain(import.meta.url)) void runCommand(main);
