// npm run serve (and the second half of npm start): serves the build published at dist/, following each new one.
import { resolve } from "node:path";
import { isMain, parseCommandArgs, runCommand, type CommandSpec } from "./cli/command.ts";
import { listenAddressFromEnv, startServerForUser, stopOnSignals, urlLines } from "./server/announce.ts";

const options = {
  dist: { type: "string", default: "dist", valueName: "DIR", description: "the build to serve" },
} as const;

export const SERVE: CommandSpec<typeof options> = {
  usage: "npm run serve --",
  summary:
    "Serves a built dist/ over HTTP: the API under its base path and the docs page at /. A new `npm run build` is " +
    "served within a second of its publication, without a restart.",
  options,
  notes: ["environment: PORT (default 3000, 0 picks a free one), HOST (default localhost)"],
};

async function main(): Promise<void> {
  const { dist } = parseCommandArgs(SERVE);
  const server = await startServerForUser({ distDir: resolve(dist), ...listenAddressFromEnv() });
  for (const line of urlLines(server)) console.log(line);
  stopOnSignals(() => server.close());
}

if (isMain(import.meta.url)) await runCommand(main);
