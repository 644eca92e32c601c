// npm run serve (and the second half of npm start): serves the build published at dist/, following each new one.
import { resolve } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../../cli/command.ts";
import { onStopRequest, type StopHandler } from "../../cli/stop.ts";
import { listenAddressFromEnv, printUrls, startFailure, startServerForUser } from "./process/announce.ts";
import { CACHE_BYTES, DEFAULT_SERVER_PROCESSES, ServerProcessStartFailure, startCluster } from "./process/primary.ts";

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

/** Serves `values.dist` as npm run serve does; `stopper` learns how to stop what started. */
export async function serveDist(
  values: { dist: string; workers: string; port?: string },
  stopper: StopHandler,
): Promise<void> {
  const workers = Number(values.workers);
  if (!/^\d+$/.test(values.workers) || workers < 1 || workers > 64)
    throw new UserError(`--workers must be a whole number from 1 to 64, got "${values.workers}"`, 2);
  const distDir = resolve(values.dist);
  const address = listenAddressFromEnv(3000, values.port);
  let server: { close(): Promise<void> } | undefined;
  stopper.set(() => server?.close());
  if (workers === 1) {
    const single = await startServerForUser({ distDir, ...address });
    server = single;
    printUrls(single);
    return;
  }
  const log = (line: string) => console.error(line);
  const cluster = await startCluster({
    distDir,
    ...address,
    processes: workers,
    cacheBytes: Math.floor(CACHE_BYTES / workers),
    log,
  }).catch((e) => {
    throw e instanceof ServerProcessStartFailure ? startFailure(e, address.port) : e;
  });
  server = cluster;
  printUrls(cluster);
}

async function main(): Promise<void> {
  await serveDist(
    parseCommandArgs(SERVE),
    onStopRequest(() => undefined),
  );
}

if (isMain(import.meta.url)) void runCommand(main);
