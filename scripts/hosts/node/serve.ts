// Serves the build published at dist/, following each new one: `npm run serve` (scripts/commands/serve.ts) and the
// second half of `npm start`.
import { resolve } from "node:path";
import { UserError } from "../../cli/command.ts";
import type { StopHandler } from "../../cli/stop.ts";
import { listenAddressFromEnv, printUrls, startFailure, startServerForUser } from "./process/announce.ts";
import { CACHE_BYTES, ServerProcessStartFailure, startCluster } from "./process/primary.ts";

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
