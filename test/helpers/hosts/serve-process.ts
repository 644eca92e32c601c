// `npm run serve` as a user runs it (from its bundle, without npm): a real process on a real port.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { repoRoot } from "../fs/dirs.ts";

export function serveProcess(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["scripts/launcher/launch.cjs", "scripts/commands/serve.ts", ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c));
  child.stderr.on("data", (c: Buffer) => (stderr += c));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** The first truthy value of `check`, polled every 50 ms for at most `ms`. */
export async function waitFor<T>(
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 20_000,
): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("timed out");
}
