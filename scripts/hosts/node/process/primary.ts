// `npm run serve -- --workers N`: N server processes sharing one port through node:cluster, as nginx runs workers.
// The primary stays thin: it never loads the server, only starts the server processes, restarts one that dies, passes on
// "a new build is served" so the others look at once, and stops them all on request.
import cluster, { type Worker as ServerProcess } from "node:cluster";
import { availableParallelism } from "node:os";
import {
  type FromServerProcess,
  SERVER_PROCESS_CONFIG_ENV,
  type ServerProcessConfig,
  type ToServerProcess,
} from "./messages.ts";
import { serverProcessEntry } from "./server-process-bundle.ts";

export interface ClusterOptions {
  distDir: string;
  port: number;
  host: string;
  processes: number;
  /** bytes of file bodies each server process keeps in memory */
  cacheBytes: number;
  /** a line about a server process that died (and is being replaced) */
  log?: (line: string) => void;
}

export interface RunningCluster {
  url: string;
  basePath: string;
  close(): Promise<void>;
}

/** A server process that exits before it listens: its reason, as the server process saw it (a taken port, a missing build). */
export class ServerProcessStartFailure extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** One server process per core, at most two: nginx's generated config runs two, and each Node process needs a heap and code
 *  of its own before it caches anything, so more would not fit the 256 MiB the whole server may use. */
export const DEFAULT_SERVER_PROCESSES = Math.min(availableParallelism(), 2);

/** Bytes of bodies a cluster caches, shared out among its server processes (a single process keeps 64 MiB): the hot set is a
 *  small part of it, and a cold set larger than any cache gains little from more, while every MiB counts N times. */
export const CACHE_BYTES = 32 * 1024 * 1024;

/** A server process that has not stopped this long after being told is killed: well inside the stop deadline of the primary
 *  (cli/stop.ts, 3 s), so the primary always reaps its server processes before it exits and none outlives it. */
const STOP_GRACE_MS = 1_500;
const RESTART_DELAY_MS = 1_000;

export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const entry = await serverProcessEntry();
  // Round robin: the primary hands each new connection to the next server process. Left to the kernel, one process can take
  // most of a burst of connections, and a keep-alive connection stays where it landed.
  cluster.schedulingPolicy = cluster.SCHED_RR;
  cluster.setupPrimary({ exec: entry.exec, execArgv: entry.execArgv });
  // Every server process asks for the same port, 0 included: node:cluster then shares one listening socket among them.
  const config: ServerProcessConfig = {
    distDir: options.distDir,
    port: options.port,
    host: options.host,
    cacheBytes: options.cacheBytes,
  };
  const children = new Set<ServerProcess>();
  let stopping = false;

  const tell = (child: ServerProcess, message: ToServerProcess) => {
    if (child.isConnected()) child.send(message);
  };

  /** Resolves once the server process listens; rejects when it exits before. A listening server process that dies is replaced. */
  function start(): Promise<Extract<FromServerProcess, { type: "listening" }>> {
    return new Promise((resolve, reject) => {
      const child = cluster.fork({ [SERVER_PROCESS_CONFIG_ENV]: JSON.stringify(config) });
      children.add(child);
      let listening = false;
      let failure: ServerProcessStartFailure | undefined;
      child.on("message", (message: FromServerProcess) => {
        if (message.type === "listening") {
          listening = true;
          resolve(message);
        } else if (message.type === "failed") failure = new ServerProcessStartFailure(message.code, message.message);
        else if (message.type === "switched")
          for (const other of children) if (other !== child) tell(other, { type: "refresh" });
      });
      child.once("exit", (code, signal) => {
        children.delete(child);
        if (!listening)
          return reject(
            failure ??
              new ServerProcessStartFailure(undefined, `a server process exited (${signal ?? code}) before listening`),
          );
        if (stopping) return;
        options.log?.(`a server process exited (${signal ?? code}): starting another`);
        restart();
      });
    });
  }

  function restart(): void {
    start().catch((e: Error) => {
      if (stopping) return;
      options.log?.(`a server process did not start: ${e.message}; trying again in ${RESTART_DELAY_MS / 1000} s`);
      setTimeout(restart, RESTART_DELAY_MS).unref();
    });
  }

  async function close(): Promise<void> {
    stopping = true;
    await Promise.all(
      [...children].map(async (child) => {
        const exited = new Promise<void>((r) => (child.isDead() ? r() : child.once("exit", () => r())));
        tell(child, { type: "stop" });
        const timer = setTimeout(() => child.process.kill("SIGKILL"), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  try {
    // The first alone: a taken port or a missing build is then one failure, not N.
    const first = await start();
    await Promise.all(Array.from({ length: options.processes - 1 }, () => start()));
    return { url: first.url, basePath: first.basePath, close };
  } catch (e) {
    await close();
    throw e;
  }
}
