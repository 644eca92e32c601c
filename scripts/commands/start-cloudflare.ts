// npm run start:cloudflare: the flags, then a built dist/ through the generated Worker in workerd, offline
// (hosts/cloudflare/local/start.ts), until stopped.
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { serveWorkerLocally } from "../hosts/cloudflare/local/start.ts";

const options = {
  dist: { type: "string", default: "dist", valueName: "DIR", description: "the build to serve" },
  r2: {
    type: "boolean",
    default: false,
    description: "serve the live build of a local R2 bucket, after publishing dist/ there as a build (new bodies only)",
  },
  "as-is": {
    type: "boolean",
    default: false,
    description: "with --r2: serve the bucket's live build as it is (waiting for one), without publishing dist/",
  },
  persist: {
    type: "string",
    valueName: "DIR",
    description: "where the local R2 bucket lives (default: DIR.r2 beside dist/)",
  },
} as const;

export const START_CLOUDFLARE: CommandSpec<typeof options> = {
  usage: "npm run start:cloudflare --",
  summary:
    "Serves a built dist/ through the generated Cloudflare Worker (dist/cloudflare/worker.js) in workerd, locally and " +
    "offline, with the bindings of dist/wrangler.jsonc (Static Assets) or, with --r2, dist/wrangler.r2.jsonc.",
  options,
  notes: ["environment: PORT (default 8787, 0 picks a free one), HOST (default 127.0.0.1)"],
};

function portFromEnv(): number {
  const port = Number(process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UserError(`PORT=${process.env.PORT} is no port number`);
  return port;
}

async function main(): Promise<void> {
  const values = parseCommandArgs(START_CLOUDFLARE);
  await serveWorkerLocally({ ...values, port: portFromEnv(), host: process.env.HOST ?? "127.0.0.1" });
}

if (isMain(import.meta.url)) void runCommand(main);
