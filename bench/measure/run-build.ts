// One build as a child process (`scripts/commands/build.ts --json`, as `npm run build` starts it), measured from
// outside: wall seconds and peak RSS.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_NODE_FLAGS, buildProcessEnv } from "../../scripts/launcher/build-node-flags.ts";
import { type BuildCounts, COUNT_KEYS } from "./build-counts.ts";
import { runMeasured } from "./measured-run.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The project whose build code runs: this checkout, or the copy a run made when it started
 *  (bench/workspace/code-snapshot.ts). */
let codeRoot = ROOT;
export function buildWithCodeAt(root: string): void {
  codeRoot = root;
}

export interface BuildRun {
  files: number;
  bytes: number;
  /** wall seconds of the whole process (what a user waits for) */
  seconds: number;
  /** the build's own `seconds` (no Node/tsx start-up) */
  reportedSeconds: number;
  peakRss: number | null;
  /** CPU seconds in user mode, every thread (null without GNU time) */
  userSeconds: number | null;
  /** reported by builds that write only what changed; null when the build does not say */
  written: number | null;
  deleted: number | null;
  /** "full" or "incremental", when the build says */
  mode: string | null;
  /** what the build says it wrote, rendered and hashed: the guard judges these exactly */
  counts: BuildCounts;
}

export async function runBuild(contentDir: string, outDir: string, extraArgs: string[]): Promise<BuildRun> {
  // As `npm run build` runs it: from its cached bundle (not through tsx), with its Node flags and environment.
  const launcher = join(codeRoot, "scripts", "launcher", "launch.cjs");
  const build = join(codeRoot, "scripts", "commands", "build.ts");
  const args = [...BUILD_NODE_FLAGS, launcher, build, "--content", contentDir, "--out", outDir, "--json", ...extraArgs];
  const run = await runMeasured(process.execPath, args, { cwd: codeRoot, env: buildProcessEnv() });
  const line = run.stdout
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"));
  const summary = line ? (JSON.parse(line) as Record<string, unknown>) : null;
  if (run.code !== 0 || !summary || summary.ok !== true)
    throw new Error(
      `build of ${contentDir} failed (exit ${run.code})\n${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}`,
    );
  const num = (key: string) => (typeof summary[key] === "number" ? (summary[key] as number) : null);
  return {
    files: num("files") ?? 0,
    bytes: num("bytes") ?? 0,
    seconds: run.seconds,
    reportedSeconds: num("seconds") ?? run.seconds,
    peakRss: run.peakRss,
    userSeconds: run.userSeconds,
    written: num("written"),
    deleted: num("deleted"),
    mode: typeof summary.mode === "string" ? summary.mode : null,
    counts: Object.fromEntries(COUNT_KEYS.map((key) => [key, num(key)])) as BuildCounts,
  };
}
