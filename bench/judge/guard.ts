// The regression guard's verdicts (`npm run bench -- --check`): what the code decides is judged exactly, what the
// machine also moves is judged loosely. Counts the build reports (files and bytes written, bodies rendered and
// hashed) must equal those bench/results.json recorded for the same catalog; user CPU and peak RSS may exceed the
// recorded figure by a stated tolerance; wall-clock ratios may exceed the issue's limit by a stated noise band.
// Pure: run.ts hands it this run's results and the recorded file.

import { type BuildCounts, COUNT_KEYS } from "../measure/build-counts.ts";
import type { BuildResult } from "../steps/build.ts";
import type { IncrementalResult, RebuildResult } from "../steps/incremental.ts";
import { BUILD_TARGET_SIZE, TARGET_LIMITS } from "./targets.ts";

/** How far above the recorded figure user CPU and peak RSS may go: as far as they move between runs of the same code
 *  on a loaded shared machine (why: docs/develop/benchmarks.md, "The guard"). */
export const TOLERANCE = { userCpu: 0.5, peakRss: 0.3 } as const;
/** How far above its limit a wall-clock ratio may go before it is a miss: as far as the same code's rows move from one
 *  quarter hour to the next on a shared machine (why: docs/develop/benchmarks.md, "The guard"). */
export const NOISE_BAND = 0.5;

/** PASS: met; NOISE: past the limit but inside the noise band (not a failure); MISS: failed; n/a: not measured or
 *  nothing recorded to judge against (a failure: the guard cannot vouch for it). */
export type Verdict = "PASS" | "NOISE" | "MISS" | "n/a";

export interface GuardRow {
  name: string;
  rule: "exact" | "tolerance" | "noise band";
  measured: string;
  /** what it was judged against */
  against: string;
  verdict: Verdict;
  /** what differed, for a count */
  details: string[];
}

export const guardPasses = (rows: GuardRow[]) =>
  rows.length > 0 && rows.every((r) => r.verdict === "PASS" || r.verdict === "NOISE");

const int = (n: number) => n.toLocaleString("en-US");

/** Every count of every run equal to the recorded one, run by run in order. */
export function judgeCounts(
  name: string,
  measured: BuildCounts[] | undefined,
  recorded: BuildCounts[] | undefined,
): GuardRow {
  const row = (verdict: Verdict, measuredText: string, details: string[] = []): GuardRow => ({
    name,
    rule: "exact",
    measured: measuredText,
    against: recorded?.length ? `${recorded.length * COUNT_KEYS.length} recorded` : "nothing recorded",
    verdict,
    details,
  });
  if (!measured?.length || measured.some((c) => COUNT_KEYS.some((k) => c[k] === null)))
    return row("n/a", "not reported");
  if (!recorded?.length) return row("n/a", `${measured.length * COUNT_KEYS.length} counted`);
  const details: string[] = [];
  if (measured.length !== recorded.length) details.push(`${measured.length} runs, ${recorded.length} recorded`);
  let equal = 0;
  measured.forEach((counts, run) => {
    for (const key of COUNT_KEYS) {
      const was = recorded[run]?.[key];
      if (counts[key] === was) equal++;
      else
        details.push(
          `${measured.length > 1 ? `run ${run + 1} ` : ""}${key}: ${int(counts[key]!)}, recorded ${was === null || was === undefined ? "nothing" : int(was)}`,
        );
    }
  });
  const total = measured.length * COUNT_KEYS.length;
  return row(details.length === 0 ? "PASS" : "MISS", `${equal} of ${total} equal`, details);
}

/** At most `tolerance` above the recorded figure, and never past the issue's own limit. */
export function judgeTolerance(
  name: string,
  measured: number | null | undefined,
  recorded: number | null | undefined,
  tolerance: number,
  limit: number,
  format: (n: number) => string,
): GuardRow {
  const bound = recorded === null || recorded === undefined ? null : Math.min(recorded * (1 + tolerance), limit);
  const against =
    recorded === null || recorded === undefined
      ? "nothing recorded"
      : `${format(recorded)} recorded + ${Math.round(tolerance * 100)}% = ${format(recorded * (1 + tolerance))}` +
        (bound! < recorded * (1 + tolerance) ? `; the limit ${format(limit)}` : "");
  const verdict: Verdict =
    measured === null || measured === undefined || bound === null ? "n/a" : measured <= bound ? "PASS" : "MISS";
  return {
    name,
    rule: "tolerance",
    measured: measured === null || measured === undefined ? "n/a" : format(measured),
    against,
    verdict,
    details: [],
  };
}

/** A wall-clock ratio (or seconds) against the issue's limit: past it by up to `band` is noise, beyond is a miss. */
export function judgeClock(
  name: string,
  measured: number | null | undefined,
  limit: number,
  band: number,
  format: (n: number) => string,
): GuardRow {
  const verdict: Verdict =
    measured === null || measured === undefined
      ? "n/a"
      : measured <= limit
        ? "PASS"
        : measured <= limit * (1 + band)
          ? "NOISE"
          : "MISS";
  return {
    name,
    rule: "noise band",
    measured: measured === null || measured === undefined ? "n/a" : format(measured),
    against: `≤ ${format(limit)}, noise to ${format(limit * (1 + band))}`,
    verdict,
    details: [],
  };
}

const MiB = 1024 * 1024;
const seconds = (n: number) => `${n.toFixed(2)} s`;
const mebibytes = (n: number) => `${(n / MiB).toFixed(0)} MiB`;
const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const times = (n: number) => `${n.toFixed(2)}×`;

/** The rows of one rebuild kind: its counts (every sample, in order) and its peak RSS. */
function rebuildRows(
  label: string,
  measured: RebuildResult | null | undefined,
  recorded: RebuildResult | null | undefined,
): GuardRow[] {
  return [
    judgeCounts(`${label}: counts`, measured?.counts, recorded?.counts),
    judgeTolerance(
      `${label}: peak RSS`,
      measured?.peakRssBytes,
      recorded?.peakRssBytes,
      TOLERANCE.peakRss,
      TARGET_LIMITS.peakRssMiB * MiB,
      mebibytes,
    ),
  ];
}

/** The guard's rows for the build and incremental steps at n = 1,000, against the recorded results of the same size. */
export function guardRows(
  measured: { build?: BuildResult[]; incremental?: IncrementalResult },
  recorded: { build?: BuildResult[] | null; incremental?: IncrementalResult | null },
): GuardRow[] {
  const n = BUILD_TARGET_SIZE;
  const rows: GuardRow[] = [];
  if (measured.build) {
    const b = measured.build.find((x) => x.n === n && !x.skipped);
    const was = recorded.build?.find((x) => x.n === n && !x.skipped);
    rows.push(
      judgeCounts(`build n=${n}: counts`, b?.counts, was?.counts),
      judgeTolerance(
        `build n=${n}: user CPU`,
        b?.userSeconds,
        was?.userSeconds,
        TOLERANCE.userCpu,
        TARGET_LIMITS.buildUserSeconds,
        seconds,
      ),
      judgeTolerance(
        `build n=${n}: peak RSS`,
        b?.peakRssBytes,
        was?.peakRssBytes,
        TOLERANCE.peakRss,
        TARGET_LIMITS.peakRssMiB * MiB,
        mebibytes,
      ),
      judgeClock(`build n=${n} / tar -x`, b?.ratio, TARGET_LIMITS.buildToTar, NOISE_BAND, times),
    );
  }
  if (measured.incremental) {
    const i = measured.incremental;
    const was = recorded.incremental?.n === i.n ? recorded.incremental : null;
    const label = `incremental n=${i.n}`;
    rows.push(
      ...rebuildRows(`${label} first rebuild`, i.first, was?.first),
      ...rebuildRows(`${label} one price`, i.price, was?.price),
      ...rebuildRows(`${label} one tool inserted`, i.insert, was?.insert),
      judgeClock(
        `${label} one price / full build`,
        i.price?.ratio,
        TARGET_LIMITS.incrementalShare,
        NOISE_BAND,
        percent,
      ),
      judgeClock(`${label} one price`, i.price?.seconds, TARGET_LIMITS.incrementalSeconds, NOISE_BAND, seconds),
      judgeClock(
        `${label} one tool inserted / full build`,
        i.insert?.ratio,
        TARGET_LIMITS.insertShare,
        NOISE_BAND,
        percent,
      ),
    );
  }
  return rows;
}
