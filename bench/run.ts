// npm run bench: build, incremental, r2, serve, sync and landscape benchmarks side by side; prints tables, writes
// bench/results.json and redraws docs/develop/growth.svg from it. With --report it runs nothing and prints the tables
// of bench/results.json. Benchmarks print numbers; tests never time anything.

import { join, relative } from "node:path";
import { runCommand, UserError } from "../scripts/cli/command.ts";
import { writeGrowthChart } from "./chart.ts";
import { guardPasses, guardRows } from "./judge/guard.ts";
import { buildWithCodeAt } from "./measure/run-build.ts";
import { type BenchOptions, parseBenchOptions } from "./options.ts";
import { allTargets, readResults, type StepResults, stepResultsOf, writeResults } from "./report/results-file.ts";
import { guardReport, recordedHeader, stepTables, targetsReport } from "./report/tables.ts";
import { benchBuilds } from "./steps/build.ts";
import { benchIncremental } from "./steps/incremental.ts";
import { benchLandscape } from "./steps/landscape.ts";
import { benchR2Upload } from "./steps/r2.ts";
import { benchServe } from "./steps/serve.ts";
import { benchSync } from "./steps/sync.ts";
import { snapshotCode } from "./workspace/code-snapshot.ts";
import { OUT, ROOT, removeAll } from "./workspace/out.ts";

const RESULTS = join(ROOT, "bench", "results.json");

async function main(): Promise<number> {
  const options = parseBenchOptions(process.argv.slice(2));
  if (options.report) return printRecorded(options.steps);
  const started = performance.now();
  const log = (line: string) =>
    console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  const measured: StepResults = {};

  try {
    // Every build of the run from the code as it is now, whatever is edited meanwhile.
    buildWithCodeAt(await snapshotCode(ROOT, join(OUT, "code")));
    if (options.steps.includes("build")) measured.build = await benchBuilds(options, log);
    if (options.steps.includes("incremental"))
      measured.incremental = await benchIncremental(options, measured.build ?? null, log);
    if (options.steps.includes("r2")) measured.r2 = await benchR2Upload(options.mainSize, options.buildArgs, log, true);
    if (options.steps.includes("serve")) measured.serve = await benchServe(options, log);
    if (options.steps.includes("sync")) measured.sync = await benchSync(options.sizes, options.mainSize, log);
    if (options.steps.includes("landscape"))
      measured.landscape = await benchLandscape(options.landscapeSizes, log, options.keep);
  } finally {
    if (!options.keep) await removeAll();
  }

  const targets = allTargets(measured);
  // The guard judges against what bench/results.json recorded, and leaves it as it was.
  const guard = options.check ? guardRows(measured, await recordedResults()) : null;
  const sections = [
    ...stepTables(measured),
    // only this run's targets: results.json may also hold older sections
    guard ? guardReport(guard) : targetsReport(targets),
  ];
  console.log(`\n${sections.join("\n\n")}\n`);
  if (guard) {
    if (!guardPasses(guard)) return 1;
    console.log("bench/results.json left as it was");
    return 0;
  }
  const file = await writeResults(RESULTS, measured, options.buildArgs);
  const chart = await writeGrowthChart(RESULTS);
  console.log(
    `${file.machine.cpus} × ${file.machine.cpuModel}, Node ${file.machine.node}${options.buildArgs.length ? `, build ${options.buildArgs.join(" ")}` : ""}; ` +
      `${((performance.now() - started) / 1000).toFixed(0)} s in all; written to bench/results.json and ${relative(ROOT, chart)}`,
  );
  return 0;
}

/** The build and incremental sections bench/results.json holds, none when it has none. */
async function recordedResults() {
  const file = await readResults(RESULTS).catch(() => null);
  return { build: file?.build?.results ?? null, incremental: file?.incremental?.results ?? null };
}

/** --report: the tables of the sections bench/results.json holds of `steps`, as the runs that measured them printed
 *  them, and their targets judged by this code; nothing runs, nothing is written. */
async function printRecorded(steps: BenchOptions["steps"]): Promise<number> {
  const file = await readResults(RESULTS).catch((e: Error) => {
    throw new UserError(`bench/results.json: not a results file (${e.message.split("\n")[0]})`);
  });
  if (!file) throw new UserError("bench/results.json: not found: run npm run bench first");
  const all = stepResultsOf(file);
  const recorded: StepResults = Object.fromEntries(steps.map((step) => [step, all[step]]));
  const tables = [recordedHeader(file, steps), ...stepTables(recorded), targetsReport(allTargets(recorded))];
  console.log(`\n${tables.join("\n\n")}\n`);
  return 0;
}

// B6: a bad flag or value, or a failure the user can fix (full disk, permissions), is one line; a bug keeps its trace.
void runCommand(main);
