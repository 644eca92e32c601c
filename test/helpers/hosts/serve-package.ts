// Starts the real `serve` CLI (what `npx serve dist` runs) on a free 127.0.0.1 port, for tests and the
// conformance suite. It reads dist/serve.json itself; nothing here configures it.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface RunningServe {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
/** serve's own entry point (package.json `bin`), run with this Node rather than through a shell. */
export const serveBin = (): string => join(dirname(require.resolve("serve/package.json")), "build/main.js");

const READY = /Accepting connections at (http:\/\/127\.0\.0\.1:\d+)/;

export function startServe(distDir: string, timeoutMs = 20_000): Promise<RunningServe> {
  // -L: no request log; NO_UPDATE_CHECK: serve would otherwise ask the npm registry before listening.
  const child = spawn(process.execPath, [serveBin(), distDir, "-l", "tcp://127.0.0.1:0", "--no-clipboard", "-L"], {
    env: { ...process.env, NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`serve ${distDir}: ${why}\n${output}`)));
    };
    const timer = setTimeout(() => fail(`not listening after ${timeoutMs} ms`), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips terminal colour codes (ESC [ … m)
      const ready = READY.exec(output.replace(/\x1b\[[0-9;]*m/g, ""));
      if (ready) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stdout.resume(); // keep draining, so serve never blocks on a full pipe
        resolve({ origin: ready[1]!, stop });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code, signal) => fail(`exited (${signal ?? code}) before listening`));
  });
}
