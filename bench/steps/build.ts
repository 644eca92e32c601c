// Step "build": full builds for each size against the tar -x floor of the same tree, best of two.
import type { BuildCounts } from "../measure/build-counts.ts";
import type { BuildRun } from "../measure/run-build.ts";
import { tarExtractSeconds } from "../measure/tar-floor.ts";
import type { BenchOptions } from "../options.ts";
import { distDir, freshBuild, lackOfSpace, OUT, removeBuild } from "../workspace/out.ts";

export interface BuildResult {
  n: number;
  skipped: string | null;
  files: number | null;
  bytes: number | null;
  seconds: number | null;
  reportedSeconds: number | null;
  peakRssBytes: number | null;
  /** CPU seconds in user mode, every thread (absent from results written before it was measured) */
  userSeconds?: number | null;
  /** files the build says it wrote, when it says (null: it does not report writes) */
  written: number | null;
  tarSeconds: number | null;
  /** build seconds / tar -x seconds */
  ratio: number | null;
  /** what each round's build reported it wrote, rendered and hashed (absent from results written before it did) */
  counts?: BuildCounts[];
}

/** Full builds of each size: a single build swings by a fifth on a shared machine, the better of two does not. */
export const BUILD_ROUNDS = 2;

const best = (values: (number | null)[]) => (values.some((v) => v === null) ? null : Math.min(...(values as number[])));

export async function benchBuilds(options: BenchOptions, log: (line: string) => void): Promise<BuildResult[]> {
  const results: BuildResult[] = [];
  for (const n of options.sizes) {
    // tree + tar archive + extracted copy
    const skipped = await lackOfSpace(n, 3);
    if (skipped) {
      log(`build n=${n}: skipped: ${skipped}`);
      results.push({
        n,
        skipped,
        files: null,
        bytes: null,
        seconds: null,
        reportedSeconds: null,
        peakRssBytes: null,
        userSeconds: null,
        written: null,
        tarSeconds: null,
        ratio: null,
      });
      continue;
    }
    const runs: BuildRun[] = [];
    for (let round = 1; round <= BUILD_ROUNDS; round++) {
      log(`build n=${n}: generating and building (${round} of ${BUILD_ROUNDS})…`);
      runs.push(await freshBuild(n, options.buildArgs));
    }
    // Each figure at its best: the rounds build the same tree.
    const run = {
      ...runs[0]!,
      seconds: best(runs.map((r) => r.seconds))!,
      peakRss: best(runs.map((r) => r.peakRss)),
      userSeconds: best(runs.map((r) => r.userSeconds)),
    };
    log(`build n=${n}: ${run.files} files in ${run.seconds.toFixed(1)} s (best of ${BUILD_ROUNDS}); timing tar -x…`);
    const tarSeconds = await tarExtractSeconds(distDir(n), run, OUT);
    results.push({
      n,
      skipped: null,
      files: run.files,
      bytes: run.bytes,
      seconds: run.seconds,
      reportedSeconds: run.reportedSeconds,
      peakRssBytes: run.peakRss,
      userSeconds: run.userSeconds,
      written: run.written,
      tarSeconds,
      ratio: run.seconds / tarSeconds,
      counts: runs.map((r) => r.counts),
    });
    // The main catalog's tree is reused by the incremental and serve steps.
    if (n !== options.mainSize) await removeBuild(n);
  }
  return results;
}
