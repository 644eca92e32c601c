// bench/results.json: the sections this run measured replace those of the previous file, the rest are kept,
// so `--only serve` refreshes the serve numbers without losing the build ones. Each section carries its date.
import { spawnSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { cpus, release, totalmem } from "node:os";
import { dirname } from "node:path";
import {
  buildTargets,
  incrementalTargets,
  landscapeTargets,
  r2Targets,
  serveTargets,
  syncTargets,
  type Target,
} from "../judge/targets.ts";
import type { BuildResult } from "../steps/build.ts";
import type { IncrementalResult } from "../steps/incremental.ts";
import type { LandscapeFailure, LandscapeResult } from "../steps/landscape.ts";
import type { R2UploadResult } from "../steps/r2.ts";
import type { ServeResult } from "../steps/serve.ts";
import type { SyncBenchResult } from "../steps/sync.ts";

/** What the steps of one run measured, each step's results when it ran. */
export interface StepResults {
  build?: BuildResult[];
  incremental?: IncrementalResult;
  r2?: R2UploadResult;
  serve?: ServeResult;
  sync?: SyncBenchResult;
  landscape?: (LandscapeResult | LandscapeFailure)[];
}

interface Section<T> {
  generatedAt: string;
  buildArgs: string[];
  results: T;
}

export interface ResultsFile {
  generatedAt: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryBytes: number;
    platform: string;
    release: string;
    node: string;
    nginx: string | null;
  };
  build: Section<BuildResult[]> | null;
  incremental: Section<IncrementalResult> | null;
  /** the R2 upload of the main size, then of a one-price edit */
  r2?: Section<R2UploadResult> | null;
  serve: Section<ServeResult> | null;
  /** search, export and hash tree sizes, and a mirror's one-price sync */
  sync?: Section<SyncBenchResult> | null;
  /** the landscape's catalogs on every full host, runs layout (issue 48) */
  landscape?: Section<(LandscapeResult | LandscapeFailure)[]> | null;
  targets: Target[];
}

function nginxVersion(): string | null {
  const run = spawnSync("nginx", ["-v"], { encoding: "utf8" });
  // nginx prints "nginx version: nginx/1.22.1" on stderr
  return run.error ? null : (/nginx\/\S+/.exec(run.stderr)?.[0] ?? null);
}

function machine(): ResultsFile["machine"] {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryBytes: totalmem(),
    platform: process.platform,
    release: release(),
    node: process.version,
    nginx: nginxVersion(),
  };
}

export function allTargets(m: StepResults): Target[] {
  return [
    ...(m.build?.filter((b) => !b.skipped).flatMap(buildTargets) ?? []),
    ...(m.incremental && !m.incremental.skipped ? incrementalTargets(m.incremental) : []),
    ...(m.r2 && !m.r2.skipped ? r2Targets(m.r2) : []),
    ...(m.serve && !m.serve.skipped ? serveTargets(m.serve) : []),
    ...(m.sync ? syncTargets(m.sync) : []),
    ...(m.landscape?.flatMap(landscapeTargets) ?? []),
  ];
}

/** The results file at `path`: null when there is none, an error when it is no JSON. */
export async function readResults(path: string): Promise<Partial<ResultsFile> | null> {
  const text = await readFile(path, "utf8").catch((e: NodeJS.ErrnoException) =>
    e.code === "ENOENT" ? null : Promise.reject(e),
  );
  return text === null ? null : (JSON.parse(text) as Partial<ResultsFile>);
}

/** Each section's results, as a run hands them to the report. */
export const stepResultsOf = (file: Partial<ResultsFile>): StepResults => ({
  build: file.build?.results,
  incremental: file.incremental?.results,
  r2: file.r2?.results,
  serve: file.serve?.results,
  sync: file.sync?.results,
  landscape: file.landscape?.results,
});

export async function writeResults(path: string, measured: StepResults, buildArgs: string[]): Promise<ResultsFile> {
  const previous = await readResults(path);
  const now = new Date().toISOString();
  const section = <T>(value: T | undefined, old: Section<T> | null | undefined): Section<T> | null =>
    value === undefined ? (old ?? null) : { generatedAt: now, buildArgs, results: value };
  const sections = {
    build: section(measured.build, previous?.build),
    incremental: section(measured.incremental, previous?.incremental),
    r2: section(measured.r2, previous?.r2),
    serve: section(measured.serve, previous?.serve),
    sync: section(measured.sync, previous?.sync),
    landscape: section(measured.landscape, previous?.landscape),
  };
  const file: ResultsFile = {
    generatedAt: now,
    machine: machine(),
    ...sections,
    targets: allTargets(stepResultsOf(sections)),
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`);
  return file;
}
