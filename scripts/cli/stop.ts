// How a long-running command (a server, dev mode, the MCP server) is asked to stop: Ctrl-C, SIGTERM — what Docker,
// systemd and pm2 send — and, when npm started it, npm going away. npm passes a signal to the shell it runs the
// script in, and that shell dies without passing it on, so the command sees its parent change instead of the signal.

/** How often a command started by npm looks at its parent. */
const PARENT_CHECK_MS = 200;
/** A stop that hangs (a connection that never closes) gives way to an exit after this long. */
const STOP_DEADLINE_MS = 3_000;

export interface StopOptions {
  /** where the one "SIGTERM: stopping" line goes; null for none (the MCP server's standard output is the protocol) */
  log?: ((line: string) => void) | null;
}

/** What a stop request runs: `set` replaces it as a command moves from one phase to the next (build, then serve). */
export interface StopHandler {
  set(stop: () => Promise<void> | void): void;
}

/**
 * Calls the stop function once, on the first request to stop, then exits 0. Call it before the command announces
 * itself, so a signal sent the moment its address is printed is already handled.
 */
export function onStopRequest(
  initial: () => Promise<void> | void,
  { log = (line) => console.log(line) }: StopOptions = {},
): StopHandler {
  let stop = initial;
  let stopping = false;
  const request = (why: string) => {
    if (stopping) return;
    stopping = true;
    log?.(`\n${why}: stopping`);
    setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref();
    Promise.resolve()
      .then(() => stop())
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.once("SIGINT", () => request("SIGINT"));
  process.once("SIGTERM", () => request("SIGTERM"));
  if (process.env.npm_lifecycle_event !== undefined) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) request("npm stopped");
    }, PARENT_CHECK_MS).unref();
  }
  return { set: (next) => void (stop = next) };
}
