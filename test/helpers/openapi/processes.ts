// Child processes of the live tests: a free port on 127.0.0.1, and Prism's validating proxy started and stopped by pid.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../../../scripts/hosts/free-port.ts";
import { repoRoot } from "../fs/dirs.ts";

export { freePort };

/** Stops one child we started: SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface Prism {
  /** origin of the proxy; its paths are the description's paths (without the server's base path) */
  url: string;
  /** everything Prism logged, for failure messages */
  log(): string;
  stop(): Promise<void>;
}

/**
 * `prism proxy`: forwards each request to `upstream` and reports every request and response violation of the
 * description in the `sl-violations` response header. `--cors=false` keeps the upstream's own CORS headers.
 */
export async function startPrism(document: string, upstream: string, timeoutMs = 60_000): Promise<Prism> {
  const port = await freePort();
  const bin = join(repoRoot, "node_modules/.bin/prism");
  const child = spawn(
    bin,
    ["proxy", document, upstream, "--port", String(port), "--host", "127.0.0.1", "--cors=false", "--errors=false"],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`prism did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const check = () => {
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}) before listening:\n${output}`));
    });
  });
  try {
    await ready;
  } catch (e) {
    await stopChild(child);
    throw e;
  }
  return { url: `http://127.0.0.1:${port}`, log: () => output, stop: () => stopChild(child) };
}
