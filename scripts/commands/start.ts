// npm start: builds the content folder as `npm run build` does, then serves it as `npm run serve` does. One command
// rather than `npm run build && npm run serve`, so that --help, the flags and a stop request sent to npm reach it.
import { spawn } from "node:child_process";
import { type CommandSpec, isMain, parseCommandArgs, runCommand } from "../cli/command.ts";
import { onStopRequest } from "../cli/stop.ts";
import { serveDist } from "../hosts/node/serve.ts";
import { buildProcessArgs, buildProcessEnv } from "../launcher/build-node-flags.ts";
import { SERVE } from "./serve.ts";

const options = {
  content: { type: "string", default: "content", valueName: "DIR", description: "the content folder to build" },
  verbose: {
    type: "boolean",
    default: false,
    description:
      "print every warning of the build whole (by default, those the last build printed are counted in one line)",
  },
  ...SERVE.options,
} as const;

export const START: CommandSpec<typeof options> = {
  usage: "npm start --",
  summary:
    "Builds the content folder into --dist (as npm run build does, incrementally), then serves it over HTTP (as npm " +
    "run serve does): the API under its base path and the docs page at /.",
  options,
  notes: SERVE.notes,
};

async function main(): Promise<number | undefined> {
  const values = parseCommandArgs(START);
  // The build in its own process, as npm run build runs it: the server's primary never holds the build's memory.
  const buildArgs = ["--content", values.content, "--out", values.dist, ...(values.verbose ? ["--verbose"] : [])];
  const build = spawn(process.execPath, buildProcessArgs(...buildArgs), {
    stdio: "inherit",
    env: buildProcessEnv(),
  });
  const stopper = onStopRequest(() => void build.kill("SIGTERM"));
  const code = await new Promise<number | null>((done) => build.once("exit", (status) => done(status)));
  if (code !== 0) return code ?? 1;
  await serveDist(values, stopper);
  return undefined;
}

if (isMain(import.meta.url)) void runCommand(main);
