// The printed report: one aligned table per step, the targets beside the numbers they judge.

import { type GuardRow, guardPasses, NOISE_BAND, TOLERANCE } from "../judge/guard.ts";
import {
  BUILD_TARGET_SIZE,
  buildTargets,
  formatTarget,
  formatTargetValue,
  incrementalTargetsByRow,
  serveTargets,
  type Target,
  verdict,
} from "../judge/targets.ts";
import { BUILD_ROUNDS, type BuildResult } from "../steps/build.ts";
import { INSERT_SAMPLES, type IncrementalResult, PRICE_SAMPLES, type RebuildResult } from "../steps/incremental.ts";
import { landscapeReport } from "../steps/landscape.ts";
import { r2Report } from "../steps/r2.ts";
import { runsPagesReport } from "../steps/runs-pages.ts";
import type { ServeResult } from "../steps/serve.ts";
import { syncReport } from "../steps/sync.ts";
import type { ResultsFile, StepResults } from "./results-file.ts";
import { fixed, int, mb, mib, textTable } from "./text-table.ts";

/** One table a step, in the order the steps run: what a run prints of its results, and --report of results.json. */
export function stepTables(m: StepResults): string[] {
  return [
    m.build && buildReport(m.build),
    m.incremental && incrementalReport(m.incremental),
    m.r2 && r2Report(m.r2),
    m.serve && serveReport(m.serve),
    m.sync && syncReport(m.sync),
    m.landscape && landscapeReport(m.landscape),
  ].filter((table) => typeof table === "string");
}

/** Where --report's figures come from: each section's run (its date and build flags), and the last run's machine. */
export function recordedHeader(file: Partial<ResultsFile>, steps: readonly (keyof StepResults)[]): string {
  const runs = steps.map((step) => {
    const section = file[step];
    if (!section) return `  ${step}: not recorded`;
    const flags = section.buildArgs.length ? ` (build ${section.buildArgs.join(" ")})` : "";
    return `  ${step}: measured ${section.generatedAt.slice(0, 10)}${flags}`;
  });
  const m = file.machine;
  const machine = m
    ? `${m.cpus} × ${m.cpuModel}, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB, Node ${m.node}, ${m.nginx ?? "no nginx"}`
    : "not recorded";
  return [`RECORDED in bench/results.json (the last run's machine: ${machine})`, ...runs].join("\n");
}

export function buildReport(builds: BuildResult[]): string {
  const rows = builds
    .filter((b) => !b.skipped)
    .map((b) => {
      const targets = buildTargets(b);
      const ratio = targets.find((t) => t.unit === "×");
      const user = targets.find((t) => t.unit === "s");
      const rss = targets.find((t) => t.unit === "MiB")!;
      const ratioCell = ratio
        ? formatTarget(ratio)
        : `${fixed(b.ratio, 2, "×")} (target at n = ${int(BUILD_TARGET_SIZE)})`;
      return [
        int(b.n),
        int(b.files),
        mb(b.bytes),
        fixed(b.seconds, 2, " s"),
        user ? formatTarget(user) : fixed(b.userSeconds ?? null, 2, " s"),
        formatTarget(rss),
        fixed(b.tarSeconds, 2, " s"),
        ratioCell,
      ];
    });
  return `BUILD (full build into an empty --out vs tar -x of the same tree, best of ${BUILD_ROUNDS}; seconds are wall-clock, Node start-up included)\n${textTable(
    ["tools", "files", "bytes", "build", "user CPU", "peak RSS", "tar -x", "build / tar -x"],
    rows,
  )}${notes(builds.map((b) => (b.skipped ? `n = ${int(b.n)} skipped: ${b.skipped}` : null)))}`;
}

const notes = (lines: (string | null)[]) =>
  lines
    .filter((l) => l !== null)
    .map((l) => `\n  ${l}`)
    .join("");

function rebuildRow(label: string, r: RebuildResult | null, target: Target | null): string[] {
  if (!r) return [label, "n/a"];
  const ratio = `${(r.ratio * 100).toFixed(1)}%`;
  const judged = target
    ? `${ratio} (${verdict(target)}, target ≤ ${(target.limit * 100).toFixed(0)}%)`
    : `${ratio} (not judged)`;
  return [
    label,
    fixed(r.seconds, 2, " s"),
    mib(r.peakRssBytes),
    r.reportedMode ?? "-",
    int(r.filesWritten),
    int(r.filesDeleted),
    int(r.filesTotal),
    judged,
  ];
}

export function incrementalReport(i: IncrementalResult): string {
  const title = `INCREMENTAL (n = ${int(i.n)}: edit the content, rebuild over the same --out; full build ${fixed(i.fullSeconds, 2, " s")})`;
  if (i.skipped) return `${title}\nskipped: ${i.skipped}`;
  const { priceShare: price, priceSeconds, insert } = incrementalTargetsByRow(i);
  const table = textTable(
    ["change", "seconds", "peak RSS", "build mode", "files written", "deleted", "files in tree", "of full build"],
    [
      rebuildRow("first rebuild (hard-link clone), one price", i.first ?? null, null),
      rebuildRow(`one price changed (best of ${PRICE_SAMPLES})`, i.price, price),
      rebuildRow(`one tool inserted mid-list (best of ${INSERT_SAMPLES})`, i.insert, insert),
    ],
  );
  const rebuilds = [i.first ?? null, i.price, i.insert].filter((r) => r !== null);
  const lines = rebuilds.map((r) => `  ${r.change}`);
  lines.push(
    "  the first rebuild after a full build into an empty --out clones the published tree by hard links (one link a file: why it is not judged, docs/develop/builds.md); the rebuilds after it recycle the generation published before the current one",
  );
  const countedBy = [...new Set(rebuilds.map((r) => r.countedBy))];
  lines.push(
    `  files counted by: ${countedBy.map((c) => (c === "build" ? "the build's own report" : c === null ? "nobody (the build does not report them)" : "comparing inode and mtime of every file before and after")).join(", ")}`,
  );
  if (rebuilds.some((r) => r.reportedMode === "full"))
    lines.push(
      "  note: the build chose a full rebuild; it does so when its code fingerprint changed (e.g. a file under scripts/ was edited during the run)",
    );
  return `${title}\n${table}\n${lines.join("\n")}\n  targets: one price ${formatTarget(price)}, ${formatTarget(priceSeconds)}; one tool inserted ${formatTarget(insert)}`;
}

export function serveReport(s: ServeResult): string {
  const title = `SERVE (n = ${int(s.n)}: ${s.requests.length} mixed requests in rotation, ${s.connections} connections, best of ${s.rounds} × ${s.durationSeconds} s per host, loopback${s.acceptEncoding ? `, Accept-Encoding: ${s.acceptEncoding}` : ""})`;
  if (s.skipped) return `${title}\nskipped: ${s.skipped}`;
  const rows = s.hosts
    .filter((h) => !h.skipped)
    .map((h) => [
      h.name,
      int(h.requestsPerSecond),
      h.rounds.map(int).join(" / "),
      fixed(h.latencyP50Ms, 0, " ms"),
      fixed(h.latencyP99Ms, 0, " ms"),
      int(h.errors),
      h.total ? `${(((h.non2xx ?? 0) / h.total) * 100).toFixed(0)}%` : "n/a",
      mb(h.bytesPerSecond),
      h.kind === "ceiling" ? "-" : `${h.wrongStatuses.length} of ${s.requests.length}`,
    ]);
  const bodies = `  bodies: ${int(s.meanBodyBytes)} bytes on average over the list (uncompressed); the ceiling answers ${int(s.ceilingBodyBytes)} bytes every time${
    s.nodeWorkers
      ? `\n  the node server and the ceiling run ${s.nodeWorkers} process${s.nodeWorkers === 1 ? "" : "es"} each (node:cluster)`
      : ""
  }`;
  const table =
    textTable(["host", "req/s", "rounds req/s", "p50", "p99", "errors", "non-2xx", "per s", "wrong status"], rows) +
    notes(s.hosts.map((h) => (h.skipped ? `${h.name} skipped: ${h.skipped}` : null)));
  const wrong = s.hosts.flatMap((h) => h.wrongStatuses.map((w) => `  ${h.name}: ${w}`));
  const targets = serveTargets(s).map((t) => `  ${t.name}: ${formatTarget(t)}`);
  return [
    title,
    table,
    bodies,
    ...(wrong.length ? ["wrong statuses (probed once before the load):", ...wrong] : []),
    ...coldReport(s),
    ...(s.runs ? ["", runsPagesReport(s.runs)] : []),
    "targets:",
    ...targets,
  ].join("\n");
}

/** The cold set's table: req/s, p99 and peak RSS per host. */
function coldReport(s: ServeResult): string[] {
  const c = s.cold;
  if (!c) return [];
  const title = `\nSERVE, COLD SET (every URL of the n = ${int(s.n)} build: ${int(c.urls)} URLs, ${mb(c.bytes)} of bodies, each request one at random; ${s.connections} connections, best of ${s.rounds} × ${s.durationSeconds} s per host)`;
  const rows = c.hosts.map((h) => [
    h.name,
    int(h.requestsPerSecond),
    h.rounds.map(int).join(" / "),
    fixed(h.latencyP50Ms, 0, " ms"),
    fixed(h.latencyP99Ms, 0, " ms"),
    mib(h.peakRssBytes),
    int(h.errors),
    `${h.wrongStatuses.length} of 200 probed`,
  ]);
  const wrong = c.hosts.flatMap((h) => h.wrongStatuses.slice(0, 5).map((w) => `  ${h.name}: ${w}`));
  return [
    title,
    textTable(["host", "req/s", "rounds req/s", "p50", "p99", "peak RSS", "errors", "wrong status"], rows),
    "  peak RSS: every process of the host's group, sampled every 200 ms (nginx generated includes its Node wrapper, scripts/hosts/nginx/start.ts)",
    ...wrong,
  ];
}

export function targetsReport(targets: Target[]): string {
  return `TARGETS\n${textTable(
    ["target", "measured", "limit", "result"],
    targets.map((t) => [
      t.name,
      formatTargetValue(t.value, t.unit),
      `${t.comparison} ${formatTargetValue(t.limit, t.unit)}`,
      verdict(t),
    ]),
  )}`;
}

/** The guard's table (--check), what differed under it, and its verdict. */
export function guardReport(rows: GuardRow[]): string {
  const table = textTable(
    ["judged", "measured", "against", "rule", "result"],
    rows.map((r) => [r.name, r.measured, r.against, r.rule, r.verdict]),
    1,
  );
  const details = rows.flatMap((r) => r.details.slice(0, 12).map((d) => `  ${r.name}: ${d}`));
  const rules =
    `  counts exactly as bench/results.json recorded them; user CPU within ${TOLERANCE.userCpu * 100}% and peak RSS within ` +
    `${TOLERANCE.peakRss * 100}% above the recorded figures; wall-clock ratios against the issue's limits, a miss only ` +
    `beyond a noise band of ${NOISE_BAND * 100}% (NOISE: inside it, not a failure)`;
  const misses = rows.filter((r) => r.verdict === "MISS" || r.verdict === "n/a").length;
  const verdict = guardPasses(rows)
    ? `guard: PASS (${rows.length} rows${rows.some((r) => r.verdict === "NOISE") ? `, ${rows.filter((r) => r.verdict === "NOISE").length} in the noise band` : ""})`
    : `guard: FAIL (${misses} of ${rows.length} rows missed or not judged)`;
  return ["GUARD", table, rules, ...details, verdict].join("\n");
}
