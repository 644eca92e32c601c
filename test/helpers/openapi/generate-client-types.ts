// npm run openapi:types: rewrites test/helpers/openapi/client/api.ts from a fresh build of the tiny fixture (after a change to
// the description); typed-client.test.ts fails while the committed file differs from what this writes.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type CommandSpec, isMain, parseCommandArgs, runCommand } from "../../../scripts/cli/command.ts";
import { fixture } from "../fs/dirs.ts";
import { buildSite } from "./built-site.ts";
import { generateClientTypes } from "./client-types.ts";

export const OPENAPI_TYPES: CommandSpec<Record<string, never>> = {
  usage: "npm run openapi:types --",
  summary:
    "Builds the tiny fixture catalog in a temporary folder and rewrites test/helpers/openapi/client/api.ts (the typed " +
    "client's types, by openapi-typescript) from its openapi.json. Run it after changing the API's description.",
  options: {},
};

async function main(): Promise<void> {
  parseCommandArgs(OPENAPI_TYPES);
  const site = await buildSite(fixture("tiny"));
  try {
    const target = fileURLToPath(new URL("./client/api.ts", import.meta.url));
    await writeFile(target, await generateClientTypes(site.openapiPath));
    console.log(`wrote ${target}`);
  } finally {
    await site.remove();
  }
}

if (isMain(import.meta.url)) void runCommand(main);
