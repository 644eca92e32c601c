// npm run serve: the flags, then the Node server over the build published at --dist (scripts/hosts/node/serve.ts).
import { type CommandSpec, isMain, parseCommandArgs, runCommand } from "../cli/command.ts";
import { onStopRequest } from "../cli/stop.ts";
import { DEFAULT_SERVER_PROCESSES } from "../hosts/node/process/primary.ts";
import { serveDist } from "../hosts/node/serve.ts";

const options = {
  dist: { type: "string", default: "dist", valueName: "DIR", description: "the build to serve" },
  port: {
    type: "string",
    valueName: "N",
    description: "the port to listen on (default: PORT, else 3000; 0 picks a free one)",
  },
  workers: {
    type: "string",
    default: String(DEFAULT_SERVER_PROCESSES),
    valueName: "N",
    description:
      "server processes sharing the port (one per core, at most 2 by default); 1 serves from this process alone",
  },
} as const;

export const SERVE: CommandSpec<typeof options> = {
  usage: "npm run serve --",
  summary:
    "Serves a built dist/ over HTTP: the API under its base path and the docs page at /. A new `npm run build` is " +
    "served within a second of its publication, without a restart.",
  options,
  notes: ["environment: PORT (default 3000, 0 picks a free one; --port wins over it), HOST (default localhost)"],
};

async function main(): Promise<void> {
  await serveDist(
    parseCommandArgs(SERVE),
    onStopRequest(() => undefined),
  );
}

if (isMain(import.meta.url)) void runCommand(main);
