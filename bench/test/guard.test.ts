// The bench guard's verdicts: counts exactly, user CPU and peak RSS within a tolerance of the recorded figures,
// wall-clock ratios against the limits with a noise band; runs of the same code within the band agree.
import { describe, expect, it } from "vitest";
import {
  guardPasses,
  guardRows,
  judgeClock,
  judgeCounts,
  judgeTolerance,
  NOISE_BAND,
  TOLERANCE,
} from "../judge/guard.ts";
import { TARGET_LIMITS } from "../judge/targets.ts";
import type { BuildCounts } from "../measure/build-counts.ts";
import type { BuildResult } from "../steps/build.ts";
import type { IncrementalResult, RebuildResult } from "../steps/incremental.ts";

const MiB = 1024 * 1024;
const plain = (n: number) => String(n);

const fullCounts: BuildCounts = {
  files: 283_009,
  bytes: 4_322_485_024,
  written: 283_009,
  writtenBytes: 4_322_485_024,
  deleted: 0,
  rendered: 283_009,
  renderedBytes: 4_322_485_024,
  hashed: 283_140,
  hashedBytes: 260_113_158,
};
const priceCounts: BuildCounts = {
  ...fullCounts,
  written: 5,
  writtenBytes: 821_948,
  rendered: 40,
  renderedBytes: 1_208_720,
  hashed: 4_040,
  hashedBytes: 2_208_720,
};
/** The regression the guard must catch: every body hashed twice. */
const hashedTwice = (c: BuildCounts): BuildCounts => ({
  ...c,
  hashed: c.hashed! * 2,
  hashedBytes: c.hashedBytes! * 2,
});

describe("judgeCounts: every count of every run equal to the recorded one", () => {
  it("passes when all are equal, naming how many", () => {
    const row = judgeCounts("build", [fullCounts, fullCounts], [fullCounts, { ...fullCounts }]);
    expect(row.verdict).toBe("PASS");
    expect(row.measured).toBe("18 of 18 equal");
    expect(row.details).toEqual([]);
  });

  it("misses when one byte more was written, and says which count of which run", () => {
    const row = judgeCounts(
      "build",
      [fullCounts, { ...fullCounts, writtenBytes: 4_322_485_025 }],
      [fullCounts, fullCounts],
    );
    expect(row.verdict).toBe("MISS");
    expect(row.details).toEqual(["run 2 writtenBytes: 4,322,485,025, recorded 4,322,485,024"]);
  });

  it("misses fewer counts too: a change either way is a change the code decided", () => {
    expect(judgeCounts("price", [{ ...priceCounts, written: 4 }], [priceCounts]).verdict).toBe("MISS");
  });

  it("misses a doubled hash count", () => {
    const row = judgeCounts("build", [hashedTwice(fullCounts)], [fullCounts]);
    expect(row.verdict).toBe("MISS");
    expect(row.details).toEqual([
      "hashed: 566,280, recorded 283,140",
      "hashedBytes: 520,226,316, recorded 260,113,158",
    ]);
  });

  it("misses when the runs are not the recorded runs", () => {
    expect(judgeCounts("insert", [priceCounts], [priceCounts, priceCounts]).verdict).toBe("MISS");
  });

  it("cannot vouch (n/a) for counts the build did not report, or that nothing recorded", () => {
    expect(judgeCounts("build", [{ ...fullCounts, hashed: null }], [fullCounts]).verdict).toBe("n/a");
    expect(judgeCounts("build", undefined, [fullCounts]).verdict).toBe("n/a");
    expect(judgeCounts("build", [fullCounts], undefined).verdict).toBe("n/a");
  });
});

describe("judgeTolerance: at most the tolerance above the recorded figure, never past the limit", () => {
  it("passes up to the recorded figure plus the tolerance, and misses beyond", () => {
    expect(judgeTolerance("cpu", 5.0, 4.0, 0.25, 6, plain).verdict).toBe("PASS");
    expect(judgeTolerance("cpu", 5.01, 4.0, 0.25, 6, plain).verdict).toBe("MISS");
    expect(judgeTolerance("cpu", 2.0, 4.0, 0.25, 6, plain).verdict).toBe("PASS");
  });

  it("holds the issue's limit even when the recorded figure plus the tolerance is past it", () => {
    expect(judgeTolerance("cpu", 5.9, 5.5, 0.25, 6, plain).verdict).toBe("PASS");
    expect(judgeTolerance("cpu", 6.1, 5.5, 0.25, 6, plain).verdict).toBe("MISS");
  });

  it("is n/a without a measurement or a recorded figure", () => {
    expect(judgeTolerance("cpu", null, 4, 0.25, 6, plain).verdict).toBe("n/a");
    expect(judgeTolerance("cpu", 4, undefined, 0.25, 6, plain).verdict).toBe("n/a");
  });
});

describe("judgeClock: a wall-clock ratio against its limit, with a noise band", () => {
  it("passes within the limit, is noise past it inside the band, misses beyond the band", () => {
    expect(judgeClock("share", 0.05, 0.05, 0.5, plain).verdict).toBe("PASS");
    expect(judgeClock("share", 0.057, 0.05, 0.5, plain).verdict).toBe("NOISE");
    expect(judgeClock("share", 0.075, 0.05, 0.5, plain).verdict).toBe("NOISE");
    expect(judgeClock("share", 0.076, 0.05, 0.5, plain).verdict).toBe("MISS");
    expect(judgeClock("share", null, 0.05, 0.5, plain).verdict).toBe("n/a");
  });
});

describe("guardPasses: noise is no failure, a miss or an unjudged row is", () => {
  const row = (verdict: "PASS" | "NOISE" | "MISS" | "n/a") => ({ ...judgeClock("x", 1, 1, 0, plain), verdict });
  it("passes PASS and NOISE, fails MISS, n/a and an empty guard", () => {
    expect(guardPasses([row("PASS"), row("NOISE")])).toBe(true);
    expect(guardPasses([row("PASS"), row("MISS")])).toBe(false);
    expect(guardPasses([row("PASS"), row("n/a")])).toBe(false);
    expect(guardPasses([])).toBe(false);
  });
});

/** A run's results as the bench reports them, with its machine-dependent figures given. */
function run(figures: {
  buildToTar: number;
  userSeconds: number;
  peakRssMiB: number;
  priceSeconds: number;
  insertShare: number;
  counts?: (c: BuildCounts) => BuildCounts;
}) {
  const counts = figures.counts ?? ((c: BuildCounts) => c);
  const fullSeconds = 10;
  const rebuild = (seconds: number, c: BuildCounts, samples: number): RebuildResult => ({
    change: "one price",
    seconds,
    peakRssBytes: 110 * MiB,
    filesWritten: c.written,
    filesDeleted: 0,
    filesTotal: c.files!,
    countedBy: "build",
    reportedWritten: c.written,
    reportedDeleted: 0,
    reportedMode: "incremental",
    ratio: seconds / fullSeconds,
    counts: Array.from({ length: samples }, () => counts(c)),
  });
  const build: BuildResult = {
    n: 1000,
    skipped: null,
    files: fullCounts.files,
    bytes: fullCounts.bytes,
    seconds: fullSeconds,
    reportedSeconds: fullSeconds - 0.3,
    peakRssBytes: figures.peakRssMiB * MiB,
    userSeconds: figures.userSeconds,
    written: fullCounts.written,
    tarSeconds: fullSeconds / figures.buildToTar,
    ratio: figures.buildToTar,
    counts: [counts(fullCounts), counts(fullCounts)],
  };
  const incremental: IncrementalResult = {
    n: 1000,
    skipped: null,
    fullSeconds,
    first: rebuild(7, priceCounts, 1),
    price: rebuild(figures.priceSeconds, priceCounts, 2),
    insert: rebuild(figures.insertShare * fullSeconds, { ...priceCounts, written: 112_541 }, 2),
  };
  return { build: [build], incremental };
}

describe("guardRows: one verdict for runs of the same code, a miss for a regression", () => {
  const recorded = run({ buildToTar: 0.8, userSeconds: 3.8, peakRssMiB: 110, priceSeconds: 0.46, insertShare: 0.4 });

  // Runs of the same code on a machine whose disk and neighbours move the clock: figures as far apart as a busy
  // afternoon's, CPU and memory inside their tolerances, every wall-clock row inside its noise band.
  const sameCode = [
    { buildToTar: 0.61, userSeconds: 3.64, peakRssMiB: 108, priceSeconds: 0.44, insertShare: 0.337 },
    { buildToTar: 0.96, userSeconds: 3.96, peakRssMiB: 113, priceSeconds: 0.53, insertShare: 0.482 },
    {
      buildToTar: 1.2,
      userSeconds: 3.8 * (1 + TOLERANCE.userCpu),
      peakRssMiB: 110,
      priceSeconds: 0.7,
      insertShare: 0.6,
    },
    {
      buildToTar: TARGET_LIMITS.buildToTar * (1 + NOISE_BAND),
      userSeconds: 3.7,
      peakRssMiB: 110 * (1 + TOLERANCE.peakRss),
      priceSeconds: TARGET_LIMITS.incrementalSeconds * (1 + NOISE_BAND),
      insertShare: TARGET_LIMITS.insertShare * (1 + NOISE_BAND),
    },
    { buildToTar: 0.85, userSeconds: 3.7, peakRssMiB: 109, priceSeconds: 0.46, insertShare: 0.394 },
  ];

  it.each(sameCode)("passes the same code: %o", (figures) => {
    const rows = guardRows(run(figures), recorded);
    expect(rows.filter((r) => r.verdict === "MISS" || r.verdict === "n/a")).toEqual([]);
    expect(guardPasses(rows)).toBe(true);
  });

  it("judges every row it says it judges: counts of the build and of each rebuild kind, CPU, memory, clock", () => {
    const rows = guardRows(run(sameCode[0]!), recorded);
    expect(rows.map((r) => [r.name, r.rule])).toEqual([
      ["build n=1000: counts", "exact"],
      ["build n=1000: user CPU", "tolerance"],
      ["build n=1000: peak RSS", "tolerance"],
      ["build n=1000 / tar -x", "noise band"],
      ["incremental n=1000 first rebuild: counts", "exact"],
      ["incremental n=1000 first rebuild: peak RSS", "tolerance"],
      ["incremental n=1000 one price: counts", "exact"],
      ["incremental n=1000 one price: peak RSS", "tolerance"],
      ["incremental n=1000 one tool inserted: counts", "exact"],
      ["incremental n=1000 one tool inserted: peak RSS", "tolerance"],
      ["incremental n=1000 one price / full build", "noise band"],
      ["incremental n=1000 one price", "noise band"],
      ["incremental n=1000 one tool inserted / full build", "noise band"],
    ]);
  });

  it("fails every body hashed twice, on the counts alone, however quiet the clock", () => {
    const rows = guardRows(run({ ...sameCode[4]!, counts: hashedTwice }), recorded);
    expect(guardPasses(rows)).toBe(false);
    expect(rows.filter((r) => r.verdict === "MISS").map((r) => r.name)).toEqual([
      "build n=1000: counts",
      "incremental n=1000 first rebuild: counts",
      "incremental n=1000 one price: counts",
      "incremental n=1000 one tool inserted: counts",
    ]);
  });

  it("fails user CPU past its tolerance and a wall-clock ratio past its noise band", () => {
    const slow = { ...sameCode[4]!, userSeconds: 3.8 * (1 + TOLERANCE.userCpu) + 0.01 };
    expect(guardRows(run(slow), recorded).find((r) => r.verdict === "MISS")?.name).toBe("build n=1000: user CPU");
    const late = { ...sameCode[4]!, insertShare: TARGET_LIMITS.insertShare * (1 + NOISE_BAND) + 0.01 };
    expect(guardRows(run(late), recorded).find((r) => r.verdict === "MISS")?.name).toBe(
      "incremental n=1000 one tool inserted / full build",
    );
  });

  it("cannot pass against results recorded before the build counted its work", () => {
    const old = run(sameCode[4]!);
    for (const b of old.build) delete b.counts;
    const rows = guardRows(run(sameCode[4]!), { build: old.build, incremental: recorded.incremental });
    expect(rows.find((r) => r.name === "build n=1000: counts")?.verdict).toBe("n/a");
    expect(guardPasses(rows)).toBe(false);
  });
});
