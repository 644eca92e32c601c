// The issue's targets, checked against whatever the steps measured.
import type { BuildResult } from "../steps/build.ts";
import type { IncrementalResult } from "../steps/incremental.ts";
import type { LandscapeFailure, LandscapeResult } from "../steps/landscape.ts";
import { EDGE_N, type R2UploadResult } from "../steps/r2.ts";
import type { R2PagesResult } from "../steps/r2-pages.ts";
import type { RunsPagesResult } from "../steps/runs-pages.ts";
import type { ServeResult } from "../steps/serve.ts";
import type { SyncBenchResult } from "../steps/sync.ts";

export interface Target {
  name: string;
  /** measured value (a ratio, or MiB for memory), null when not measured */
  value: number | null;
  comparison: "≤" | "≥";
  limit: number;
  unit: "×" | "%" | "MiB" | "kB" | "MB" | "GB" | "min" | "reads" | "writes" | "URLs" | "tests" | "s";
  pass: boolean | null;
}

export const TARGET_LIMITS = {
  buildToTar: 1.0,
  peakRssMiB: 256,
  /** at n = 5,000: memory may grow with the catalog, not with its bodies */
  peakRssLargeMiB: 400,
  buildUserSeconds: 6,
  incrementalShare: 0.05,
  incrementalSeconds: 0.5,
  insertShare: 0.45,
  nodeOverServe: 10,
  nodeOverCeiling: 0.9,
  generatedOverPlainNginx: 0.9,
  coldNodeOverNginx: 0.7,
  coldNodePeakRssMiB: 256,
  searchShare: 0.1,
  searchBuildShare: 0.05,
  mirrorIndexKB: 50,
  r2BodyReads: 1,
  /** issue 40: lists as runs, a cost that grows with the catalog, not with its pages */
  r2FirstWrites: 40,
  r2FirstMB: 50,
  r2EditWrites: 10,
  r2EditKB: 100,
  r2EditSeconds: 6,
  r2InsertWrites: 20,
  r2InsertMB: 10,
  /** n = 10,000 from one machine: generate, edge-only build, upload, serving */
  edgeMinutes: 15,
  edgePeakRssMiB: 1024,
  edgeDiskGB: 5,
  r2BucketOverLive: 1.5,
  /** issue 48: the landscape (15,384 tools, 49 categories) on the runs layout */
  landscapeBuildSeconds: 15,
  landscapeBuildMB: 200,
  landscapeBuildRssMiB: 384,
  landscapeR2FirstWrites: 50,
  landscapeR2FirstMB: 40,
  landscapeEditSeconds: 1,
  landscapeEditDevSeconds: 3,
  landscapeInsertSeconds: 3,
  landscapeInsertDevSeconds: 5,
  landscapeR2EditWrites: 10,
  landscapeR2EditKB: 300,
  landscapeR2InsertWrites: 20,
  landscapeR2InsertMB: 1,
  landscapeMirrorMB: 300,
  landscapeMirrorEditKB: 300,
  landscapeMirrorInsertMB: 1,
  /** issue 48: n = 103,528 in 300 categories, generate → build → upload → serving */
  landscapeLargeMinutes: 10,
  landscapeLargeRssMiB: 1024,
  landscapeLargeDiskGB: 2,
  landscapeLargeEditMB: 1,
  landscapeLargeInsertMB: 2,
} as const;

export function target(
  name: string,
  value: number | null,
  comparison: Target["comparison"],
  limit: number,
  unit: Target["unit"],
): Target {
  const pass = value === null ? null : comparison === "≤" ? value <= limit : value >= limit;
  return { name, value, comparison, limit, unit, pass };
}

export const verdict = (t: Target) => (t.pass === null ? "n/a" : t.pass ? "PASS" : "MISS");

const MiB = 1024 * 1024;

/** The issue sets the build/tar target for n = 1,000; smaller trees are shown, not judged: there the fixed start-up
 *  (Node, tsx, schema compilation: about a second) is a large share of a short run. */
export const BUILD_TARGET_SIZE = 1000;

/** The catalog size whose peak RSS is judged against TARGET_LIMITS.peakRssLargeMiB (the others against peakRssMiB). */
export const LARGE_SIZE = 5000;

export function buildTargets(b: BuildResult): Target[] {
  const atTarget = b.n === BUILD_TARGET_SIZE;
  return [
    ...(atTarget ? [target(`build n=${b.n} / tar -x`, b.ratio, "≤", TARGET_LIMITS.buildToTar, "×")] : []),
    ...(atTarget && b.userSeconds !== undefined
      ? [target(`build n=${b.n} user CPU`, b.userSeconds, "≤", TARGET_LIMITS.buildUserSeconds, "s")]
      : []),
    target(
      `build n=${b.n} peak RSS`,
      b.peakRssBytes === null ? null : b.peakRssBytes / MiB,
      "≤",
      b.n >= LARGE_SIZE ? TARGET_LIMITS.peakRssLargeMiB : TARGET_LIMITS.peakRssMiB,
      "MiB",
    ),
  ];
}

export function incrementalTargets(i: IncrementalResult): Target[] {
  return [
    target(
      `incremental n=${i.n} one price / full build`,
      i.price?.ratio ?? null,
      "≤",
      TARGET_LIMITS.incrementalShare,
      "%",
    ),
    target(`incremental n=${i.n} one price`, i.price?.seconds ?? null, "≤", TARGET_LIMITS.incrementalSeconds, "s"),
    target(
      `incremental n=${i.n} one tool inserted / full build`,
      i.insert?.ratio ?? null,
      "≤",
      TARGET_LIMITS.insertShare,
      "%",
    ),
  ];
}

/** The incremental targets by what they judge, for the report's rows. */
export function incrementalTargetsByRow(i: IncrementalResult) {
  const [priceShare, priceSeconds, insert] = incrementalTargets(i) as [Target, Target, Target];
  return { priceShare, priceSeconds, insert };
}

export function serveRatios(s: ServeResult) {
  const rps = (name: string) => {
    const h = s.hosts.find((x) => x.name === name);
    return h && h.skipped === null && h.requestsPerSecond ? h.requestsPerSecond : null;
  };
  const ratio = (a: number | null, b: number | null) => (a === null || b === null ? null : a / b);
  return {
    nodeOverServe: ratio(rps("node server"), rps("npx serve")),
    nodeOverCeiling: ratio(rps("node server"), rps("raw node:http")),
    generatedOverPlainNginx: ratio(rps("nginx generated"), rps("nginx plain")),
    coldNodeOverNginx: ratio(coldRps(s, "node server"), coldRps(s, "nginx generated")),
  };
}

const coldRps = (s: ServeResult, name: string) => s.cold?.hosts.find((h) => h.name === name)?.requestsPerSecond || null;

export function serveTargets(s: ServeResult): Target[] {
  const r = serveRatios(s);
  const nodeColdRss = s.cold?.hosts.find((h) => h.name === "node server")?.peakRssBytes;
  return [
    target("node server / npx serve (req/s)", r.nodeOverServe, "≥", TARGET_LIMITS.nodeOverServe, "×"),
    target("node server / raw node:http ceiling (req/s)", r.nodeOverCeiling, "≥", TARGET_LIMITS.nodeOverCeiling, "%"),
    target(
      "nginx generated / nginx plain (req/s)",
      r.generatedOverPlainNginx,
      "≥",
      TARGET_LIMITS.generatedOverPlainNginx,
      "%",
    ),
    target(
      "cold set: node server / nginx generated (req/s)",
      r.coldNodeOverNginx,
      "≥",
      TARGET_LIMITS.coldNodeOverNginx,
      "%",
    ),
    target(
      "cold set: node server peak RSS",
      nodeColdRss === undefined || nodeColdRss === null ? null : nodeColdRss / MiB,
      "≤",
      TARGET_LIMITS.coldNodePeakRssMiB,
      "MiB",
    ),
    ...(s.runs ? runsPagesTargets(s.runs) : []),
  ];
}

export function formatTargetValue(value: number | null, unit: Target["unit"]): string {
  if (value === null) return "n/a";
  if (unit === "%") return `${(value * 100).toFixed(1)}%`;
  if (unit === "MiB") return `${value.toFixed(0)} MiB`;
  if (unit === "kB") return `${value.toFixed(1)} kB`;
  if (unit === "MB") return `${value.toFixed(2)} MB`;
  if (unit === "GB") return `${value.toFixed(2)} GB`;
  if (unit === "min") return `${value.toFixed(1)} min`;
  if (unit === "reads") return value.toFixed(2);
  if (unit === "writes" || unit === "URLs" || unit === "tests") return value.toFixed(0);
  if (unit === "s") return `${value.toFixed(2)} s`;
  return `${value.toFixed(2)}×`;
}

export const formatTarget = (t: Target) =>
  `${formatTargetValue(t.value, t.unit)} ${verdict(t)} (${t.comparison} ${formatTargetValue(t.limit, t.unit)})`;

/** Search at n = 1,000: files and bytes against the tree's, its render and hashing against the build; the mirror's
 *  index bytes for a one-price change (E3). */
export function syncTargets(r: SyncBenchResult): Target[] {
  const at = r.sizes.find((s) => s.n === BUILD_TARGET_SIZE);
  return [
    ...(at
      ? [
          target(
            `search files n=${at.n} / tree files`,
            at.searchFiles / at.treeFiles,
            "≤",
            TARGET_LIMITS.searchShare,
            "%",
          ),
          target(
            `search bytes n=${at.n} / tree bytes`,
            at.searchBytes / at.treeBytes,
            "≤",
            TARGET_LIMITS.searchShare,
            "%",
          ),
          target(
            `search render n=${at.n} / build`,
            at.searchSeconds / at.buildSeconds,
            "≤",
            TARGET_LIMITS.searchBuildShare,
            "%",
          ),
        ]
      : []),
    ...(r.mirror
      ? [
          target(
            `mirror index, one price n=${r.mirror.n}`,
            r.mirror.indexBytes / 1000,
            "≤",
            TARGET_LIMITS.mirrorIndexKB,
            "kB",
          ),
        ]
      : []),
  ];
}

/** The Worker's R2 reads (issue 22): a cold body is read once (its manifest shard once per isolate, then kept: counted
 *  apart), a route-decided error reads nothing, a file missing from the manifest no body, a hit no shard and no body. */
export function r2Targets(r: R2UploadResult): Target[] {
  // results.json sections from before reads were counted by kind held one number per target kind: not judged
  if (!r.cold || !r.hot || typeof r.cold.body !== "object") return [];
  const { cold, hot } = r;
  return [
    ...r2UploadTargets(r),
    ...edgeTargets(r),
    ...(r.conformance
      ? [target(`conformance suite in R2 mode ${r.conformance.n}: failed tests`, r.conformance.failed, "≤", 0, "tests")]
      : []),
    ...(r.pages ? r2PagesTargets(r.pages) : []),
    target("R2 body reads per body request, cold", cold.body.body, "≤", TARGET_LIMITS.r2BodyReads, "reads"),
    target("R2 reads per route-decided error, cold", cold.routeError.total, "≤", 0, "reads"),
    target("R2 body reads per file missing from the manifest", cold.missing.body, "≤", 0, "reads"),
    // the pointer is reread once a second per isolate however many requests come: bounded by time, shown apart
    target(
      "R2 shard and body reads per request, hot",
      Math.max(...[hot.body, hot.routeError, hot.missing].map((m) => m.manifest + m.body)),
      "≤",
      0,
      "reads",
    ),
  ];
}

/** The whole way to the edge (issue 40): at EDGE_N generate, edge-only build, upload and serving within the time,
 *  memory and disk set; at every size the sample answered as the build recorded it (and as the Node server does). */
export function edgeTargets(r: R2UploadResult): Target[] {
  return (r.edge ?? []).flatMap((e) => {
    const n = `n=${e.n}`;
    const rss = [e.peakRss.build, e.peakRss.upload, e.peakRss.serving];
    return [
      target(`edge ${n}: sample URLs differing from the build's record`, e.mismatches.length, "≤", 0, "URLs"),
      ...(e.node
        ? [target(`edge ${n}: sample URLs differing from the Node server`, e.node.mismatches.length, "≤", 0, "URLs")]
        : []),
      ...(e.n >= EDGE_N
        ? [
            target(
              `edge ${n}: generate → build → upload → serving`,
              e.seconds.total / 60,
              "≤",
              TARGET_LIMITS.edgeMinutes,
              "min",
            ),
            target(
              `edge ${n}: peak RSS (build, upload, serving)`,
              rss.includes(null) ? null : Math.max(...(rss as number[])) / MiB,
              "≤",
              TARGET_LIMITS.edgePeakRssMiB,
              "MiB",
            ),
            target(`edge ${n}: disk (catalog, tree, bucket)`, e.diskBytes / 1e9, "≤", TARGET_LIMITS.edgeDiskGB, "GB"),
          ]
        : []),
    ];
  });
}

/** Publication in packs, lists as runs (issues 29, 40): write requests and bytes of the first upload, a one-price edit
 *  and one inserted tool; the bucket after a series of inserts and a prune against the live build's stored bytes.
 *  Set for n = 1,000; shown at any size (results.json sections from before packs lack these numbers: not judged). */
export function r2UploadTargets(r: R2UploadResult): Target[] {
  if (r.first.writes === undefined || !r.insert) return [];
  const n = `n=${r.n}`;
  return [
    target(`R2 first upload ${n}: write requests`, r.first.writes, "≤", TARGET_LIMITS.r2FirstWrites, "writes"),
    target(`R2 first upload ${n}: bytes sent`, r.first.sentBytes / 1e6, "≤", TARGET_LIMITS.r2FirstMB, "MB"),
    target(`R2 one-price edit ${n}: write requests`, r.edit.writes, "≤", TARGET_LIMITS.r2EditWrites, "writes"),
    target(`R2 one-price edit ${n}: bytes`, r.edit.sentBytes / 1000, "≤", TARGET_LIMITS.r2EditKB, "kB"),
    target(`R2 one-price edit ${n}: seconds end to end`, r.edit.seconds, "≤", TARGET_LIMITS.r2EditSeconds, "s"),
    target(`R2 one inserted tool ${n}: write requests`, r.insert.writes, "≤", TARGET_LIMITS.r2InsertWrites, "writes"),
    target(`R2 one inserted tool ${n}: bytes sent`, r.insert.sentBytes / 1e6, "≤", TARGET_LIMITS.r2InsertMB, "MB"),
    ...(r.series
      ? [
          target(
            `R2 bucket after ${r.series.inserts} inserts and a prune ${n} / live build stored`,
            r.series.afterPrune.bucket / r.series.afterPrune.live,
            "≤",
            TARGET_LIMITS.r2BucketOverLive,
            "×",
          ),
        ]
      : []),
  ];
}

/** From this many tools a landscape catalog is judged as the issue's large one (n = 103,528), below as the landscape
 *  (n = 15,384): each row names its n. */
export const LANDSCAPE_LARGE_N = 50_000;

/** Issue 48's targets for one landscape catalog: 0 failures on the Node server and nginx at every size; the build,
 *  R2, mirror and dev rows at the landscape's size; the whole way and the changes' R2 bytes at the large one. */
export function landscapeTargets(r: LandscapeResult | LandscapeFailure): Target[] {
  const n = `landscape n=${r.n}`;
  if ("failed" in r) return [target(`${n}: ran to the end (${r.failed.slice(0, 60)})`, null, "≤", 0, "URLs")];
  const L = TARGET_LIMITS;
  const failures = r.hosts.map((h) =>
    target(`${n}: ${h.name} sample (${h.asked} URLs), failures`, h.failed, "≤", 0, "URLs"),
  );
  if (r.n >= LANDSCAPE_LARGE_N) {
    const rss = [r.build.peakRss, r.upload.peakRss, r.servingPeakRss];
    return [
      target(`${n}: generate → build → upload → serving`, r.seconds.total / 60, "≤", L.landscapeLargeMinutes, "min"),
      target(
        `${n}: peak RSS (build, upload, serving)`,
        rss.includes(null) ? null : Math.max(...(rss as number[])) / MiB,
        "≤",
        L.landscapeLargeRssMiB,
        "MiB",
      ),
      target(`${n}: disk (catalog, tree, bucket)`, r.diskBytes / 1e9, "≤", L.landscapeLargeDiskGB, "GB"),
      ...failures,
      target(`${n}: R2 one price edit, bytes sent`, r.price.upload.sentBytes / 1e6, "≤", L.landscapeLargeEditMB, "MB"),
      target(
        `${n}: R2 one inserted tool, bytes sent`,
        r.insert.upload.sentBytes / 1e6,
        "≤",
        L.landscapeLargeInsertMB,
        "MB",
      ),
    ];
  }
  return [
    target(`${n}: build (runs) seconds`, r.seconds.build, "≤", L.landscapeBuildSeconds, "s"),
    target(`${n}: build (runs) disk`, r.build.diskBytes / 1e6, "≤", L.landscapeBuildMB, "MB"),
    target(
      `${n}: build (runs) peak RSS`,
      r.build.peakRss === null ? null : r.build.peakRss / MiB,
      "≤",
      L.landscapeBuildRssMiB,
      "MiB",
    ),
    target(`${n}: R2 first upload, writes`, r.upload.writes, "≤", L.landscapeR2FirstWrites, "writes"),
    target(`${n}: R2 first upload, bytes sent`, r.upload.sentBytes / 1e6, "≤", L.landscapeR2FirstMB, "MB"),
    ...failures,
    target(`${n}: one price edit, rebuild`, r.price.rebuildSeconds, "≤", L.landscapeEditSeconds, "s"),
    target(`${n}: one price edit, npm run dev answers`, r.price.devSeconds, "≤", L.landscapeEditDevSeconds, "s"),
    target(`${n}: one inserted tool, rebuild`, r.insert.rebuildSeconds, "≤", L.landscapeInsertSeconds, "s"),
    target(`${n}: one inserted tool, npm run dev answers`, r.insert.devSeconds, "≤", L.landscapeInsertDevSeconds, "s"),
    target(`${n}: R2 one price edit, writes`, r.price.upload.writes, "≤", L.landscapeR2EditWrites, "writes"),
    target(`${n}: R2 one price edit, bytes sent`, r.price.upload.sentBytes / 1e3, "≤", L.landscapeR2EditKB, "kB"),
    target(`${n}: R2 one inserted tool, writes`, r.insert.upload.writes, "≤", L.landscapeR2InsertWrites, "writes"),
    target(`${n}: R2 one inserted tool, bytes sent`, r.insert.upload.sentBytes / 1e6, "≤", L.landscapeR2InsertMB, "MB"),
    target(`${n}: mirror, first copy on disk`, r.mirror.diskBytes / 1e6, "≤", L.landscapeMirrorMB, "MB"),
    target(
      `${n}: mirror sync, one price edit (wire)`,
      r.price.mirror.wireDown / 1e3,
      "≤",
      L.landscapeMirrorEditKB,
      "kB",
    ),
    target(
      `${n}: mirror sync, one inserted tool (wire)`,
      r.insert.mirror.wireDown / 1e6,
      "≤",
      L.landscapeMirrorInsertMB,
      "MB",
    ),
  ];
}

// Lists as runs on every full host (issue 48 item 5, L1, L2): the serve step (runs-pages.ts) and the r2 step
// (r2-pages.ts) at n ≤ 1,000. A hot list page from runs is served from memory as a page file is: ≥ 0.8× its req/s.
export const RUNS_PAGES_LIMITS = { hotRunsOverPages: 0.8 } as const;

/** The hot page ratio, and per host serving the runs build the pages of the tree it answered otherwise (a host that
 *  could not run: n/a). */
export function runsPagesTargets(r: RunsPagesResult): Target[] {
  const n = `n=${r.n}`;
  return [
    ...(r.hot
      ? [
          target(
            `hot list page ${n}: node server from runs / from the page file (req/s)`,
            r.hot.ratio,
            "≥",
            RUNS_PAGES_LIMITS.hotRunsOverPages,
            "×",
          ),
        ]
      : []),
    ...r.every
      .filter((e) => e.layout === "runs")
      .map((e) =>
        target(
          `every page ${n} from runs, ${e.name}: pages differing from the page tree`,
          e.skipped || !e.mismatches ? null : e.mismatches.length,
          "≤",
          0,
          "URLs",
        ),
      ),
  ];
}

/** The Worker over R2 (and over Static Assets) from the runs build: pages differing from the page tree (or, with a
 *  sample, from the runs). */
export function r2PagesTargets(r: R2PagesResult): Target[] {
  const what = `${r.sample === null ? "every page" : `${r.sample} sampled pages`} n=${r.n}`;
  return [
    target(`${what}, Worker over R2: pages differing`, r.r2.mismatches.length, "≤", 0, "URLs"),
    ...(r.assets
      ? [target(`${what}, Worker over Static Assets: pages differing`, r.assets.mismatches.length, "≤", 0, "URLs")]
      : []),
  ];
}
