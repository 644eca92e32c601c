// Runs a command to completion and measures it: wall seconds, and peak RSS and CPU seconds through GNU time when present.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface MeasuredRun {
  code: number;
  stdout: string;
  stderr: string;
  /** wall-clock seconds of the whole process, start-up included */
  seconds: number;
  /** peak resident set size in bytes (max RSS of the process, all its threads), null without GNU time */
  peakRss: number | null;
  /** CPU seconds in user mode of the process and its children, all threads; null without GNU time */
  userSeconds: number | null;
}

const GNU_TIME = "/usr/bin/time";

export async function runMeasured(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<MeasuredRun> {
  const withTime = existsSync(GNU_TIME);
  const scratch = withTime ? await mkdtemp(join(tmpdir(), "bench-time-")) : null;
  const timeFile = scratch ? join(scratch, "time.txt") : null;
  // -o: GNU time's line goes to a file, so the command's own stderr stays untouched.
  const [cmd, argv] = timeFile ? [GNU_TIME, ["-o", timeFile, "-f", "%M %U", command, ...args]] : [command, args];
  const started = performance.now();
  const child = spawn(cmd, argv, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  const seconds = (performance.now() - started) / 1000;
  let peakRss: number | null = null;
  let userSeconds: number | null = null;
  if (timeFile && scratch) {
    const text = await readFile(timeFile, "utf8").catch(() => "");
    // the last line: a command killed by a signal gets a line about it before
    const [kb, user] = (/(\d+) ([\d.]+)\s*$/.exec(text.trim()) ?? []).slice(1).map(Number);
    if (kb !== undefined && Number.isFinite(kb) && kb > 0) peakRss = kb * 1024;
    if (user !== undefined && Number.isFinite(user)) userSeconds = user;
    await rm(scratch, { recursive: true, force: true });
  }
  return { code, stdout, stderr, seconds, peakRss, userSeconds };
}

/** Runs a command, throwing with its output when it fails. */
export async function runOrThrow(
  command: string,
  args: string[],
  options: { cwd?: string } = {},
): Promise<MeasuredRun> {
  const run = await runMeasured(command, args, options);
  if (run.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${run.code}\n${run.stderr.slice(-2000)}`);
  return run;
}
