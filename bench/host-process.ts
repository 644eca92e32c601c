// A server under test, run as a child process in its own process group (so the load generator never shares its
// event loop, and stopping it stops whatever it started), ready once it answers HTTP on 127.0.0.1.
import { spawn } from "node:child_process";
import { freePort } from "../scripts/hosts/free-port.ts";

export interface HostProcess {
  origin: string;
  /** the process group the host runs in (its leader's pid): its memory is that of every process in it */
  pgid: number;
  stop(): Promise<void>;
}

/** Hosts still running: they are detached, so Ctrl-C on the benchmark must stop them itself. */
const live = new Map<number, () => Promise<void>>();
let cleanupInstalled = false;

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // already gone
  }
}

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.once("exit", () => [...live.keys()].forEach(killGroup));
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => {
      // each stop asks nicely (so wrappers remove their temporary files), then forces
      void Promise.allSettled([...live.values()].map((stop) => stop())).then(() => process.exit(130));
    });
}

export { freePort };

/** `afterStop` cleans up what the caller made for this host (it also runs when Ctrl-C stops the benchmark). */
export async function startHostProcess(
  command: string,
  args: string[],
  port: number,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 20_000,
  afterStop: () => Promise<void> = async () => {},
): Promise<HostProcess> {
  const child = spawn(command, args, {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  installCleanup();
  let output = "";
  const keep = (c: Buffer) => (output = (output + c.toString()).slice(-4000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is already gone
    }
  };
  const stop = async () => {
    // The leader first, so a wrapper (scripts/hosts/nginx/start.ts) stops its server itself and cleans up after it.
    if (running) child.kill("SIGTERM");
    const killed = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 5_000)),
    ]);
    if (!killed) signalGroup("SIGKILL");
    await exited;
    signalGroup("SIGKILL"); // anything the host left behind in its group
    live.delete(child.pid!);
    await afterStop();
  };
  live.set(child.pid!, stop);
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!running) {
      await stop();
      throw new Error(`${command} ${args.join(" ")} exited before listening:\n${output}`);
    }
    const answered = await fetch(`${origin}/`, { signal: AbortSignal.timeout(1_000) }).then(
      async (r) => {
        await r.arrayBuffer();
        return true;
      },
      () => false,
    );
    if (answered) return { origin, pgid: child.pid!, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`${command} ${args.join(" ")} not answering on ${origin} after ${timeoutMs} ms:\n${output}`);
}
