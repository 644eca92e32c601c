// `npm run serve -- --workers N`: N server processes sharing one port through node:cluster, as nginx runs workers.
// The primary stays thin: it never loads the server, only starts the workers, restarts one that dies, passes on
// "a new build is served" so the others look at once, and stops them all on request.
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { type FromWorker, type ToWorker, WORKER_CONFIG_ENV, type WorkerConfig } from "./messages.ts";
import { workerEntry } from "./server-process-bundle.ts";

export interface ClusterOptions {
  distDir: string;
  port: number;
  host: string;
  workers: number;
  /** bytes of file bodies each worker keeps in memory */
  cacheBytes: number;
  /** a line about a worker that died (and is being replaced) */
  log?: (line: string) => void;
}

export interface RunningCluster {
  url: string;
  basePath: string;
  close(): Promise<void>;
}

/** A worker that exits before it listens: its reason, as the worker saw it (a taken port, a missing build). */
export class WorkerStartFailure extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** One worker per core, at most two: nginx's generated config runs two, and each Node process needs a heap and code
 *  of its own before it caches anything, so more would not fit the 256 MiB the whole server may use. */
export const DEFAULT_WORKERS = Math.min(availableParallelism(), 2);

/** Bytes of bodies a cluster caches, shared out among its workers (a single process keeps 64 MiB): the hot set is a
 *  small part of it, and a cold set larger than any cache gains little from more, while every MiB counts N times. */
export const CACHE_BYTES = 32 * 1024 * 1024;

/** A worker that has not stopped this long after being told is killed: well inside the stop deadline of the primary
 *  (cli/stop.ts, 3 s), so the primary always reaps its workers before it exits and none outlives it. */
const STOP_GRACE_MS = 1_500;
const RESTART_DELAY_MS = 1_000;

export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const entry = await workerEntry();
  // Round robin: the primary hands each new connection to the next worker. Left to the kernel, one process can take
  // most of a burst of connections, and a keep-alive connection stays where it landed.
  cluster.schedulingPolicy = cluster.SCHED_RR;
  cluster.setupPrimary({ exec: entry.exec, execArgv: entry.execArgv });
  // Every worker asks for the same port, 0 included: node:cluster then shares one listening socket among them.
  const config: WorkerConfig = {
    distDir: options.distDir,
    port: options.port,
    host: options.host,
    cacheBytes: options.cacheBytes,
  };
  const workers = new Set<Worker>();
  let stopping = false;

  const tell = (worker: Worker, message: ToWorker) => {
    if (worker.isConnected()) worker.send(message);
  };

  /** Resolves once the worker listens; rejects when it exits before. A listening worker that dies is replaced. */
  function start(): Promise<Extract<FromWorker, { type: "listening" }>> {
    return new Promise((resolve, reject) => {
      const worker = cluster.fork({ [WORKER_CONFIG_ENV]: JSON.stringify(config) });
      workers.add(worker);
      let listening = false;
      let failure: WorkerStartFailure | undefined;
      worker.on("message", (message: FromWorker) => {
        if (message.type === "listening") {
          listening = true;
          resolve(message);
        } else if (message.type === "failed") failure = new WorkerStartFailure(message.code, message.message);
        else if (message.type === "switched")
          for (const other of workers) if (other !== worker) tell(other, { type: "refresh" });
      });
      worker.once("exit", (code, signal) => {
        workers.delete(worker);
        if (!listening)
          return reject(
            failure ?? new WorkerStartFailure(undefined, `a server worker exited (${signal ?? code}) before listening`),
          );
        if (stopping) return;
        options.log?.(`a server worker exited (${signal ?? code}): starting another`);
        restart();
      });
    });
  }

  function restart(): void {
    start().catch((e: Error) => {
      if (stopping) return;
      options.log?.(`a server worker did not start: ${e.message}; trying again in ${RESTART_DELAY_MS / 1000} s`);
      setTimeout(restart, RESTART_DELAY_MS).unref();
    });
  }

  async function close(): Promise<void> {
    stopping = true;
    await Promise.all(
      [...workers].map(async (worker) => {
        const exited = new Promise<void>((r) => (worker.isDead() ? r() : worker.once("exit", () => r())));
        tell(worker, { type: "stop" });
        const timer = setTimeout(() => worker.process.kill("SIGKILL"), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  try {
    // The first alone: a taken port or a missing build is then one failure, not N.
    const first = await start();
    await Promise.all(Array.from({ length: options.workers - 1 }, () => start()));
    return { url: first.url, basePath: first.basePath, close };
  } catch (e) {
    await close();
    throw e;
  }
}
