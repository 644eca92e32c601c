// Step "incremental": edit the main catalog, rebuild over the same --out, and count what the rebuild wrote.
// The first rebuild after a full build into an empty --out clones the published tree by hard links (there is no
// older generation to recycle yet): its own row. The targets judge the steady state, the rebuilds after it.

import type { BuildCounts } from "../measure/build-counts.ts";
import { diffTrees, settleDisk, snapshotTree, waitForTrash } from "../measure/disk.ts";
import { runBuild } from "../measure/run-build.ts";
import type { BenchOptions } from "../options.ts";
import { changeOnePrice, insertToolMidList } from "../workspace/catalog.ts";
import { contentDir, distDir, freshBuild, hasBuild, lackOfSpace } from "../workspace/out.ts";
import type { BuildResult } from "./build.ts";

export interface RebuildResult {
  change: string;
  seconds: number;
  peakRssBytes: number | null;
  /** files new or rewritten, and removed */
  filesWritten: number | null;
  filesDeleted: number | null;
  filesTotal: number;
  /** where the counts come from: the build's own report, or comparing every file's inode and mtime before and after */
  countedBy: "build" | "inode+mtime" | null;
  /** what the build itself reports, when it does */
  reportedWritten: number | null;
  reportedDeleted: number | null;
  reportedMode: string | null;
  /** seconds / full build seconds */
  ratio: number;
  /** what the build reported it wrote, rendered and hashed, for every sample in order (absent from older results) */
  counts?: BuildCounts[];
}

export interface IncrementalResult {
  n: number;
  skipped: string | null;
  fullSeconds: number | null;
  /** the first rebuild after the full one (one price changed): a hard-link clone of the published tree */
  first: RebuildResult | null;
  price: RebuildResult | null;
  insert: RebuildResult | null;
}

/** One-price rebuilds timed per run, each after its own edit; the table shows the faster, as the full build it is
 *  divided by is the better of two (the issue's targets are best of two). Both runs are printed. */
export const PRICE_SAMPLES = 2;
/** Inserts timed per run, each a new tool; the table shows the best, likewise. */
export const INSERT_SAMPLES = 2;

/** The fastest run, named with every run's seconds. */
const fastest = (runs: RebuildResult[]): RebuildResult => {
  const chosen = [...runs].sort((a, b) => a.seconds - b.seconds)[0]!;
  return {
    ...chosen,
    change: `${chosen.change} (best of ${runs.length}: ${runs.map((r) => `${r.seconds.toFixed(2)} s`).join(", ")})`,
    // every sample's: which one was fastest is the machine's choice, what each wrote is the code's
    counts: runs.flatMap((r) => r.counts ?? []),
  };
};

async function rebuild(
  n: number,
  options: BenchOptions,
  change: string,
  fullSeconds: number,
  buildCounts: boolean,
): Promise<RebuildResult> {
  // Listing the whole tree twice is slow: only done when the build does not say what it wrote.
  const before = buildCounts ? null : await snapshotTree(distDir(n));
  await waitForTrash(`${distDir(n)}.builds`);
  await settleDisk();
  const run = await runBuild(contentDir(n), distDir(n), options.buildArgs);
  let counts: Pick<RebuildResult, "filesWritten" | "filesDeleted" | "filesTotal" | "countedBy"> =
    run.written === null
      ? { filesWritten: null, filesDeleted: null, filesTotal: run.files, countedBy: null }
      : { filesWritten: run.written, filesDeleted: run.deleted, filesTotal: run.files, countedBy: "build" };
  if (before) {
    const after = await snapshotTree(distDir(n));
    const changes = diffTrees(before, after);
    counts = {
      filesWritten: changes.written,
      filesDeleted: changes.deleted,
      filesTotal: after.size,
      countedBy: "inode+mtime",
    };
  }
  return {
    change,
    seconds: run.seconds,
    peakRssBytes: run.peakRss,
    ...counts,
    reportedWritten: run.written,
    reportedDeleted: run.deleted,
    reportedMode: run.mode,
    ratio: run.seconds / fullSeconds,
    counts: [run.counts],
  };
}

export async function benchIncremental(
  options: BenchOptions,
  builds: BuildResult[] | null,
  log: (line: string) => void,
): Promise<IncrementalResult> {
  const n = options.mainSize;
  const skip = (why: string): IncrementalResult => {
    log(`incremental n=${n}: skipped: ${why}`);
    return { n, skipped: why, fullSeconds: null, first: null, price: null, insert: null };
  };
  const reference = builds?.find((b) => b.n === n);
  let fullSeconds = reference?.seconds ?? null;
  let buildCounts = reference?.written !== null && reference?.written !== undefined;
  if (fullSeconds === null || !hasBuild(n)) {
    // the tree and the copy a rebuild writes beside it
    const noRoom = await lackOfSpace(n, 2);
    if (noRoom) return skip(noRoom);
    log(`incremental n=${n}: full build first (the reference)…`);
    const full = await freshBuild(n, options.buildArgs);
    fullSeconds = full.seconds;
    buildCounts = full.written !== null;
  } else {
    const noRoom = await lackOfSpace(n, 1);
    if (noRoom) return skip(noRoom);
  }
  const firstChange = await changeOnePrice(contentDir(n), n);
  log(`incremental n=${n}: one price changed (${firstChange}), first rebuild (clone of the published tree)…`);
  const first = await rebuild(n, options, `first rebuild, one price: ${firstChange}`, fullSeconds, buildCounts);
  // A rebuild of half a second is mostly process start-up and cold reads: one sample swings by a fifth between
  // runs, so the row is the faster of two, each after its own edit and with the disk caches dropped.
  const prices: RebuildResult[] = [];
  for (let i = 1; i <= PRICE_SAMPLES; i++) {
    const priceChange = await changeOnePrice(contentDir(n), n);
    log(`incremental n=${n}: one price changed (${priceChange}), rebuilding (${i} of ${PRICE_SAMPLES})…`);
    prices.push(await rebuild(n, options, `one price: ${priceChange}`, fullSeconds, buildCounts));
  }
  const price = fastest(prices);
  const inserts: RebuildResult[] = [];
  for (let i = 1; i <= INSERT_SAMPLES; i++) {
    const inserted = await insertToolMidList(contentDir(n), n, i - 1);
    log(`incremental n=${n}: one tool inserted (${inserted}), rebuilding (${i} of ${INSERT_SAMPLES})…`);
    inserts.push(await rebuild(n, options, `one tool inserted: ${inserted}`, fullSeconds, buildCounts));
  }
  return { n, skipped: null, fullSeconds, first, price, insert: fastest(inserts) };
}
