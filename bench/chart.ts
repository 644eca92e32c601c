// npm run bench:chart: redraws docs/develop/growth.svg from bench/results.json (the bench calls the same function at its end).
import { readFile, writeFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../scripts/cli/command.ts";
import { chartInput, growthChartSvg } from "./report/chart-svg.ts";
import type { ResultsFile } from "./report/results-file.ts";
import { ROOT } from "./workspace/out.ts";

export const RESULTS_PATH = resolve(ROOT, "bench/results.json");
export const CHART_PATH = resolve(ROOT, "docs/develop/growth.svg");

/** Reads a results file and writes its chart; returns the chart's path. */
export async function writeGrowthChart(resultsPath = RESULTS_PATH, chartPath = CHART_PATH): Promise<string> {
  let results: ResultsFile;
  try {
    results = JSON.parse(await readFile(resultsPath, "utf8")) as ResultsFile;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(
      `${relative(process.cwd(), resultsPath)}: ${code === "ENOENT" ? "not found: run npm run bench first" : `not a results file (${(e as Error).message.split("\n")[0]})`}`,
    );
  }
  await writeFile(chartPath, growthChartSvg(chartInput(results)));
  return chartPath;
}

const options = {
  results: {
    type: "string",
    default: "bench/results.json",
    valueName: "FILE",
    description: "the bench results to draw",
  },
  out: { type: "string", default: "docs/develop/growth.svg", valueName: "FILE", description: "the SVG to write" },
} as const;

export const BENCH_CHART: CommandSpec<typeof options> = {
  usage: "npm run bench:chart --",
  summary:
    "Draws files, bytes and build seconds against catalog size, and requests per second per host, as one SVG. No network, no benchmark run.",
  options,
};

if (isMain(import.meta.url)) {
  void runCommand(async () => {
    const values = parseCommandArgs(BENCH_CHART);
    const written = await writeGrowthChart(resolve(values.results), resolve(values.out));
    console.log(`wrote ${relative(process.cwd(), written) || written}`);
  });
}
