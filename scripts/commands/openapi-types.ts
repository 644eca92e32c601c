// npm run openapi:types: rewrites test/helpers/openapi/client/api.ts from a fresh build of the tiny fixture (after a
// change to the description; scripts/write-client-types.ts); typed-client.test.ts fails while the committed file
// differs from what this writes.
import { type CommandSpec, isMain, parseCommandArgs, runCommand } from "../cli/command.ts";
import { CLIENT_TYPES_FILE, writeClientTypes } from "../write-client-types.ts";

export const OPENAPI_TYPES: CommandSpec<Record<string, never>> = {
  usage: "npm run openapi:types --",
  summary:
    "Builds the tiny fixture catalog in a temporary folder and rewrites test/helpers/openapi/client/api.ts (the typed " +
    "client's types, by openapi-typescript) from its openapi.json. Run it after changing the API's description.",
  options: {},
};

async function main(): Promise<void> {
  parseCommandArgs(OPENAPI_TYPES);
  await writeClientTypes();
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
}

if (isMain(import.meta.url)) void runCommand(main);
