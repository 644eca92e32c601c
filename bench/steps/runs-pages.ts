// Lists as runs on the Node server and nginx (L1, L2, issue 48 item 5): the same n-tool catalog built in both layouts.
// 1. Hot: the Node server (as the serve step starts it) on each build, the same hot list pages loaded with autocannon,
//    rounds alternating between the two (pages, runs, runs, pages, …) so that noise from elsewhere on the machine hits
//    both alike; the best round of each counts, and runs / pages is judged (≥ 0.8).
// 2. Every page: each page file of the page tree (each list, each limit 1–100, each offset 0–total: 280,500 at
//    n = 1,000) asked of the Node server and of nginx serving the runs build, and of the Node server serving the page
//    tree as the pace to compare with; status, bytes and ETag against the file (bench/hosts/every-page.ts, the code
//    r2-pages.ts asks the Worker with).
// Not in npm test (minutes); the serve step of `npm run bench` runs it at n ≤ 1,000 on its own tree, or alone:
// `npx tsx bench/steps/runs-pages.ts --n 1000`.
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { BuildIndexText } from "../../scripts/api/runtime/build-index.ts";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../../scripts/cli/command.ts";
import { askEveryPage, type PagesAsked, pageTarget, pageTargets } from "../hosts/every-page.ts";
import { HOSTS, type Host } from "../hosts/hosts.ts";
import { type LoadRequest, type LoadResult, loadRun } from "../hosts/load-run.ts";
import { probe } from "../hosts/probe.ts";
import type { HostProcess } from "../hosts/process.ts";
import { runBuild } from "../measure/run-build.ts";
import { positiveInt } from "../options.ts";
import { writeBenchCatalog } from "../workspace/catalog.ts";
import { OUT } from "../workspace/out.ts";

/** Up to this size the serve step checks every page of its tree from runs (the page tree itself is 4.3 GB at 1,000). */
export const RUNS_PAGES_N = 1000;

const WARM_UP_SECONDS = 2;

export interface LayoutLoad extends LoadResult {
  /** req/s of every round; the other numbers are those of the best round */
  rounds: number[];
}

export interface HotResult {
  /** the pages loaded, in rotation */
  paths: string[];
  connections: number;
  durationSeconds: number;
  acceptEncoding: string | null;
  pages: LayoutLoad;
  runs: LayoutLoad;
  /** best req/s from runs / best req/s from the page files */
  ratio: number;
}

export interface EveryPageHost extends Partial<PagesAsked> {
  name: string;
  /** the build it serves */
  layout: "runs" | "pages";
  skipped: string | null;
}

export interface RunsPagesResult {
  n: number;
  hot: HotResult | null;
  /** every page file, asked of each host (the Node server on the page tree: the pace to compare with) */
  every: EveryPageHost[];
  seconds: number;
}

const hostNamed = (name: string): Host => {
  const host = HOSTS.find((h) => h.name === name);
  if (!host) throw new Error(`bench/hosts/hosts.ts has no host "${name}"`);
  return host;
};

/** The hot pages: one of the whole list past its first page, one of the largest category. */
export function hotPaths(index: BuildIndexText, basePath: string): string[] {
  const largest = Object.values(index.lists)
    .filter((l) => l.category !== null)
    .sort((a, b) => b.lengths.length - a.lengths.length || (a.category! < b.category! ? -1 : 1))[0];
  return [pageTarget(basePath, null, 20, 40), ...(largest ? [pageTarget(basePath, largest.category, 20, 0)] : [])];
}

async function readIndex(dist: string) {
  const index = JSON.parse(await readFile(join(dist, "build-index.json"), "utf8")) as BuildIndexText;
  const { basePath } = JSON.parse(await readFile(join(dist, "routes.json"), "utf8")) as { basePath: string };
  return { index, basePath };
}

async function hotRounds(
  servers: { pages: HostProcess; runs: HostProcess },
  paths: string[],
  { connections, duration, rounds, acceptEncoding }: HotOptions,
  log: (line: string) => void,
): Promise<HotResult> {
  const headers: Record<string, string> = acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {};
  const requests: LoadRequest[] = paths.map((path) => ({ path, headers }));
  const loads = { pages: { rounds: [] as number[] }, runs: { rounds: [] as number[] } } as Record<
    "pages" | "runs",
    Partial<LayoutLoad> & { rounds: number[] }
  >;
  for (const layout of ["pages", "runs"] as const) {
    for (const path of paths) {
      const { status } = await probe(servers[layout].origin, path, headers);
      if (status !== 200) throw new Error(`hot page ${path} from ${layout}: ${status}, not 200`);
    }
    await loadRun(servers[layout].origin, requests, connections, WARM_UP_SECONDS);
  }
  // pages, runs, runs, pages, …: a load from elsewhere that rises or falls over the step weighs on both alike
  for (let round = 1; round <= rounds; round++)
    for (const layout of round % 2 === 1 ? (["pages", "runs"] as const) : (["runs", "pages"] as const)) {
      log(`runs pages: hot, node server from ${layout}, round ${round} of ${rounds}, ${connections} connections…`);
      const load = await loadRun(servers[layout].origin, requests, connections, duration);
      const best = loads[layout];
      best.rounds.push(load.requestsPerSecond);
      if (best.requestsPerSecond === undefined || load.requestsPerSecond > best.requestsPerSecond)
        Object.assign(best, load);
    }
  const pages = loads.pages as LayoutLoad;
  const runs = loads.runs as LayoutLoad;
  return {
    paths,
    connections,
    durationSeconds: duration,
    acceptEncoding,
    pages,
    runs,
    ratio: runs.requestsPerSecond / pages.requestsPerSecond,
  };
}

export interface HotOptions {
  connections: number;
  duration: number;
  rounds: number;
  acceptEncoding: string | null;
}

/** Both parts on two builds of the same catalog: `pagesDist` (the page tree) and `runsDist` (`--layout runs`). */
export async function benchRunsPages(
  n: number,
  {
    pagesDist,
    runsDist,
    hot = true,
    every = true,
    ...load
  }: { pagesDist: string; runsDist: string; hot?: boolean; every?: boolean } & HotOptions,
  log: (line: string) => void,
): Promise<RunsPagesResult> {
  const started = performance.now();
  const { index, basePath } = await readIndex(runsDist);
  const node = hostNamed("node server");
  const result: RunsPagesResult = { n, hot: null, every: [], seconds: 0 };
  if (hot) {
    const pages = await node.start(pagesDist, "");
    try {
      const runs = await node.start(runsDist, "");
      try {
        result.hot = await hotRounds({ pages, runs }, hotPaths(index, basePath), load, log);
      } finally {
        await runs.stop();
      }
    } finally {
      await pages.stop();
    }
  }
  if (every) {
    const targets = pageTargets(index.lists, basePath);
    const expectedOf = (page: { file: string }) => readFile(join(pagesDist, page.file));
    const hosts = [
      { host: node, layout: "runs" as const },
      { host: hostNamed("nginx generated"), layout: "runs" as const },
      { host: node, layout: "pages" as const },
    ];
    for (const { host, layout } of hosts) {
      const entry: EveryPageHost = { name: host.name, layout, skipped: host.unavailable() };
      result.every.push(entry);
      if (entry.skipped) {
        log(`runs pages: ${host.name}: skipped: ${entry.skipped}`);
        continue;
      }
      log(`runs pages: ${host.name} from ${layout}: ${targets.length.toLocaleString("en-US")} pages…`);
      const server = await host.start(layout === "runs" ? runsDist : pagesDist, "");
      try {
        Object.assign(entry, await askEveryPage(server.origin, targets, expectedOf));
      } finally {
        await server.stop();
      }
    }
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

const int = (x: number) => Math.round(x).toLocaleString("en-US");

/** The bench report's section. */
export function runsPagesReport(r: RunsPagesResult): string {
  const lines = [
    `LISTS AS RUNS (n = ${int(r.n)}: the same catalog built as a page tree and as runs), ${r.seconds.toFixed(0)} s`,
  ];
  if (r.hot) {
    const h = r.hot;
    const layout = (what: string, l: LayoutLoad) =>
      `    ${what}: ${int(l.requestsPerSecond)} req/s (rounds ${l.rounds.map(int).join(" / ")}), p50 ${l.latencyP50Ms} ms, ` +
      `p99 ${l.latencyP99Ms} ms, ${int(l.errors)} errors, ${int(l.non2xx)} non-2xx`;
    lines.push(
      `  hot list pages on the Node server (${h.paths.join(", ")}; ${h.connections} connections, best of ` +
        `${h.pages.rounds.length} × ${h.durationSeconds} s, layouts taking turns${h.acceptEncoding ? `, Accept-Encoding: ${h.acceptEncoding}` : ""}):`,
      layout("page files", h.pages),
      layout("runs      ", h.runs),
      `    runs / page files: ${h.ratio.toFixed(2)}×`,
    );
  }
  if (r.every.length) lines.push("  every page of the page tree, status, bytes and ETag against the file:");
  for (const e of r.every)
    lines.push(
      e.skipped
        ? `    ${e.name} (${e.layout}): skipped: ${e.skipped}`
        : `    ${e.name} from ${e.layout}: ${int(e.pages ?? 0)} pages in ${(e.seconds ?? 0).toFixed(0)} s ` +
            `(${int((e.pages ?? 0) / (e.seconds || 1))} pages/s with the check), ${e.mismatches?.length ?? 0} differ` +
            (e.mismatches?.length ? `:\n      ${e.mismatches.slice(0, 5).join("\n      ")}` : ""),
    );
  const node = (layout: string) => r.every.find((e) => e.name === "node server" && e.layout === layout && e.seconds);
  const [fromRuns, fromPages] = [node("runs"), node("pages")];
  if (fromRuns && fromPages)
    lines.push(
      `    cold (each page asked once), node server from runs / from the page files: ` +
        `${(fromPages.seconds! / fromRuns.seconds!).toFixed(2)}× the pages per second`,
    );
  return lines.join("\n");
}

const options = {
  n: { type: "string", default: "1000", valueName: "TOOLS", description: "catalog size" },
  connections: { type: "string", default: "20", valueName: "N", description: "autocannon connections (hot part)" },
  duration: { type: "string", default: "5", valueName: "S", description: "seconds per load round (hot part)" },
  rounds: { type: "string", default: "2", valueName: "N", description: "load rounds per layout (hot part)" },
  "accept-encoding": { type: "string", valueName: "CODINGS", description: "sent by the hot part's load" },
  "no-hot": { type: "boolean", default: false, description: "skip the hot part" },
  "no-every": { type: "boolean", default: false, description: "skip the every-page part" },
  pages: { type: "string", valueName: "DIR", description: "a page-tree build of the catalog to use (with --runs)" },
  runs: { type: "string", valueName: "DIR", description: "a runs build of the same catalog (with --pages)" },
  keep: { type: "boolean", default: false, description: "keep the catalog and the two builds made" },
  json: { type: "boolean", default: false, description: "print the result as one JSON object" },
} as const;

const SPEC: CommandSpec<typeof options> = {
  usage: "npx tsx bench/steps/runs-pages.ts --",
  summary:
    "Builds an n-tool catalog as a page tree and as runs; loads the same hot list pages on the Node server from each, " +
    "and asks the Node server and nginx serving the runs for every page of the tree, byte for byte and ETag for ETag.",
  options,
};

async function main(): Promise<void> {
  const values = parseCommandArgs(SPEC);
  const count = (name: "n" | "connections" | "duration" | "rounds") => positiveInt(name, values[name]);
  const n = count("n");
  if ((values.pages === undefined) !== (values.runs === undefined))
    throw new UserError("--pages and --runs go together", 2);
  const log = values.json ? () => {} : console.log;
  const [content, pagesMade, runsMade] = ["content", "tree", "runs"].map((what) =>
    join(OUT, `runs-pages-${what}-${n}`),
  ) as [string, string, string];
  // a build's --out is a link into its store of builds beside it
  const made = [content, pagesMade, `${pagesMade}.builds`, runsMade, `${runsMade}.builds`];
  let dists = values.pages && values.runs ? { pagesDist: values.pages, runsDist: values.runs } : null;
  try {
    if (!dists) {
      for (const dir of made) await rm(dir, { recursive: true, force: true });
      log(`runs pages n=${n}: the catalog, built as runs and as a page tree…`);
      await writeBenchCatalog(n, content);
      await runBuild(content, runsMade, ["--layout", "runs"]);
      await runBuild(content, pagesMade, []);
      dists = { pagesDist: pagesMade, runsDist: runsMade };
    }
    const result = await benchRunsPages(
      n,
      {
        ...dists,
        hot: !values["no-hot"],
        every: !values["no-every"],
        connections: count("connections"),
        duration: count("duration"),
        rounds: count("rounds"),
        acceptEncoding: values["accept-encoding"] ?? null,
      },
      log,
    );
    console.log(values.json ? JSON.stringify(result) : runsPagesReport(result));
    if (result.every.some((e) => (e.mismatches?.length ?? 0) > 0)) process.exitCode = 1;
  } finally {
    if (!values.keep && !(values.pages && values.runs))
      for (const dir of made) await rm(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => process.argv.includes("--json") });
