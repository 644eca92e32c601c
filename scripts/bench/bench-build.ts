// Step "build": full builds for each size against the tar -x floor of the same tree.
import type { BenchOptions } from "./options.ts";
import { tarExtractSeconds } from "./tar-floor.ts";
import { distDir, freshBuild, lackOfSpace, OUT, removeBuild } from "./workspace.ts";

export interface BuildResult {
  n: number;
  skipped: string | null;
  files: number | null;
  bytes: number | null;
  seconds: number | null;
  reportedSeconds: number | null;
  peakRssBytes: number | null;
  /** files the build says it wrote, when it says (null: it does not report writes) */
  written: number | null;
  tarSeconds: number | null;
  /** build seconds / tar -x seconds */
  ratio: number | null;
}

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
        written: null,
        tarSeconds: null,
        ratio: null,
      });
      continue;
    }
    log(`build n=${n}: generating and building…`);
    const run = await freshBuild(n, options.buildArgs);
    log(`build n=${n}: ${run.files} files in ${run.seconds.toFixed(1)} s; timing tar -x of the same tree…`);
    const tarSeconds = await tarExtractSeconds(distDir(n), run, OUT);
    results.push({
      n,
      skipped: null,
      files: run.files,
      bytes: run.bytes,
      seconds: run.seconds,
      reportedSeconds: run.reportedSeconds,
      peakRssBytes: run.peakRss,
      written: run.written,
      tarSeconds,
      ratio: run.seconds / tarSeconds,
    });
    // The main catalog's tree is reused by the incremental and serve steps.
    if (n !== options.mainSize) await removeBuild(n);
  }
  return results;
}
