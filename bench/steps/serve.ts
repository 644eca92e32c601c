// Step "serve": the same mixed request list against each host in turn, one at a time, each in its own process.
import { statSync } from "node:fs";
import { join } from "node:path";
import { HOSTS, type Host, NODE_WORKERS } from "../hosts/hosts.ts";
import { type LoadRequest, type LoadResult, loadRun, randomLoadRun } from "../hosts/load-run.ts";
import { probe } from "../hosts/probe.ts";
import type { HostProcess } from "../hosts/process.ts";
import { type BenchRequest, buildColdList, buildRequestList, ceilingBodyFile } from "../hosts/url-list.ts";
import { removeTree } from "../measure/disk.ts";
import { sampleRss } from "../measure/rss-sampler.ts";
import { runBuild } from "../measure/run-build.ts";
import type { BenchOptions } from "../options.ts";
import { contentDir, distDir, freshBuild, hasBuild, lackOfSpace, OUT } from "../workspace/out.ts";
import { benchRunsPages, RUNS_PAGES_N, type RunsPagesResult } from "./runs-pages.ts";

export interface HostResult extends Partial<LoadResult> {
  name: string;
  kind: Host["kind"];
  skipped: string | null;
  /** requests of the list whose status differs from what this kind of host should answer */
  wrongStatuses: string[];
  /** req/s of every round; the other numbers are those of the best round */
  rounds: number[];
}

export interface ColdHostResult extends Partial<LoadResult> {
  name: string;
  /** req/s of every round; the other numbers are those of the best round */
  rounds: number[];
  /** the highest resident memory of the host's processes seen during any cold round */
  peakRssBytes: number | null;
  /** sampled URLs whose status differs from the expected one */
  wrongStatuses: string[];
}

export interface ColdResult {
  /** URLs in the set, and the bytes of all their bodies */
  urls: number;
  bytes: number;
  hosts: ColdHostResult[];
}

export interface ServeResult {
  n: number;
  skipped: string | null;
  connections: number;
  durationSeconds: number;
  rounds: number;
  acceptEncoding: string | null;
  /** mean body of one pass over the list (304s count as empty), and the ceiling server's one body */
  meanBodyBytes: number;
  ceilingBodyBytes: number;
  /** processes of the Node server, and of the ceiling (absent in results from before it had workers) */
  nodeWorkers?: number;
  requests: { path: string; file: string; status: number; conditional: boolean }[];
  hosts: HostResult[];
  /** the cold, large working set: every URL of the build, uniformly at random */
  cold: ColdResult | null;
  /** n ≤ RUNS_PAGES_N: the same catalog built as runs, a hot list page from each layout on the Node server, and every
   *  page of the tree from runs on the Node server and nginx (runs-pages.ts) */
  runs?: RunsPagesResult;
}

/** URLs of the cold set probed for their status before the load (all of them would take longer than the load). */
const COLD_PROBES = 200;
const COLD_WARM_UP_SECONDS = 2;

// long enough for the Node hosts to finish optimising their hot path before anything is measured
const WARM_UP_SECONDS = 2;

/** What a host of this kind should answer for one entry of the list. */
function expectedStatus(kind: Host["kind"], r: BenchRequest): number | null {
  if (kind === "ceiling") return null;
  if (kind === "static") return r.conditional ? 304 : 200;
  return r.status;
}

/** The host's version of the list: its URL for each entry, and If-None-Match with the ETag it gave. */
async function requestsFor(
  host: Host,
  origin: string,
  list: BenchRequest[],
  acceptEncoding: string | null,
): Promise<{ requests: LoadRequest[]; wrong: string[] }> {
  const base: Record<string, string> = acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {};
  const requests: LoadRequest[] = [];
  const wrong: string[] = [];
  for (const r of list) {
    const path = host.kind === "static" ? `/${r.file}` : r.path;
    const headers = { ...base };
    if (r.conditional) {
      const { etag } = await probe(origin, path, base);
      if (etag) headers["If-None-Match"] = etag;
    }
    const { status } = await probe(origin, path, headers);
    const expected = expectedStatus(host.kind, r);
    if (expected !== null && status !== expected)
      wrong.push(`${r.conditional ? "(If-None-Match) " : ""}${path} → ${status}, not ${expected}`);
    requests.push({ path, headers });
  }
  return { requests, wrong };
}

export async function benchServe(options: BenchOptions, log: (line: string) => void): Promise<ServeResult> {
  const n = options.mainSize;
  const result: ServeResult = {
    n,
    skipped: null,
    connections: options.connections,
    durationSeconds: options.duration,
    rounds: options.rounds,
    acceptEncoding: options.acceptEncoding,
    meanBodyBytes: 0,
    ceilingBodyBytes: 0,
    nodeWorkers: NODE_WORKERS,
    requests: [],
    hosts: [],
    cold: null,
  };
  if (!hasBuild(n)) {
    const noRoom = await lackOfSpace(n, 1);
    if (noRoom) {
      log(`serve: skipped: ${noRoom}`);
      return { ...result, skipped: noRoom };
    }
    log(`serve: building the n=${n} catalog to serve…`);
    await freshBuild(n, options.buildArgs);
  }
  const dist = distDir(n);
  const { basePath, requests: list } = await buildRequestList(dist);
  result.requests = list;
  result.meanBodyBytes = Math.round(
    list.reduce((sum, r) => sum + (r.conditional ? 0 : statSync(join(dist, r.file)).size), 0) / list.length,
  );
  // The ceiling answers a body as large as the list's mean, so the ratio measures routing, not bytes.
  const ceilingBody = ceilingBodyFile(dist, basePath, result.meanBodyBytes);
  result.ceilingBodyBytes = statSync(ceilingBody).size;
  // Every host runs (idle) for the whole step; rounds alternate between them so a burst of load from elsewhere on a
  // shared machine hits all hosts alike, and each host's best round is kept.
  const running: { host: Host; server: HostProcess; requests: LoadRequest[]; result: HostResult }[] = [];
  try {
    for (const host of HOSTS) {
      const unavailable = host.unavailable();
      const skip = (why: string) => {
        log(`serve ${host.name}: skipped: ${why}`);
        result.hosts.push({ name: host.name, kind: host.kind, skipped: why, wrongStatuses: [], rounds: [] });
      };
      if (unavailable) {
        skip(unavailable);
        continue;
      }
      let started: HostProcess;
      try {
        started = await host.start(dist, ceilingBody);
      } catch (e) {
        // The first line names the command, the last what it said before it stopped (too large for Static Assets…).
        const lines = (e as Error).message.split("\n").filter((l) => l.trim());
        skip(`did not start: ${lines[0]}${lines.length > 1 ? ` ${lines.at(-1)}` : ""}`);
        continue;
      }
      const entry = {
        host,
        server: started,
        requests: [] as LoadRequest[],
        result: { name: host.name, kind: host.kind, skipped: null, wrongStatuses: [], rounds: [] } as HostResult,
      };
      running.push(entry);
      result.hosts.push(entry.result);
      const { requests, wrong } = await requestsFor(host, started.origin, list, options.acceptEncoding);
      entry.requests = requests;
      entry.result.wrongStatuses = wrong;
      await loadRun(started.origin, requests, options.connections, WARM_UP_SECONDS);
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const { host, server, requests, result: hostResult } of running) {
        log(
          `serve ${host.name}: round ${round} of ${options.rounds}, ${options.connections} connections for ${options.duration} s…`,
        );
        const load = await loadRun(server.origin, requests, options.connections, options.duration);
        hostResult.rounds.push(load.requestsPerSecond);
        if (hostResult.requestsPerSecond === undefined || load.requestsPerSecond > hostResult.requestsPerSecond)
          Object.assign(hostResult, load);
      }
    }
    result.cold = await coldRounds(dist, running, options, log);
  } finally {
    for (const { server } of running) await server.stop();
  }
  if (n <= RUNS_PAGES_N) result.runs = await runsPages(n, dist, options, log);
  return result;
}

/** The serve step's catalog built again as runs (small: no page file), then runs-pages.ts on the two builds. */
async function runsPages(
  n: number,
  pagesDist: string,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<RunsPagesResult> {
  const runsDist = join(OUT, `dist-${n}-runs`);
  const made = [runsDist, `${runsDist}.builds`];
  try {
    log(`serve: the n=${n} catalog built as runs…`);
    await runBuild(contentDir(n), runsDist, [...options.buildArgs, "--layout", "runs"]);
    return await benchRunsPages(
      n,
      {
        pagesDist,
        runsDist,
        connections: options.connections,
        duration: options.duration,
        rounds: options.rounds,
        acceptEncoding: options.acceptEncoding,
      },
      log,
    );
  } finally {
    for (const dir of made) await removeTree(dir);
  }
}

/** The cold set against the hosts marked `cold`, rounds alternating between them; best round kept, peak RSS of all. */
async function coldRounds(
  dist: string,
  running: { host: Host; server: HostProcess }[],
  options: BenchOptions,
  log: (line: string) => void,
): Promise<ColdResult> {
  const { requests: list, bytes } = await buildColdList(dist);
  const cold: ColdResult = { urls: list.length, bytes, hosts: [] };
  const paths = list.map((r) => r.path);
  const headers: Record<string, string> = options.acceptEncoding ? { "Accept-Encoding": options.acceptEncoding } : {};
  const hosts = running.filter((r) => r.host.cold);
  const entries = hosts.map(({ host, server }) => ({
    host,
    server,
    result: { name: host.name, rounds: [], peakRssBytes: null, wrongStatuses: [] } as ColdHostResult,
  }));
  for (const { server, result: hostResult } of entries) {
    for (let i = 0; i < COLD_PROBES; i++) {
      const r = list[Math.floor((i * list.length) / COLD_PROBES)]!;
      const { status } = await probe(server.origin, r.path, headers);
      if (status !== r.status) hostResult.wrongStatuses.push(`${r.path} → ${status}, not ${r.status}`);
    }
    cold.hosts.push(hostResult);
    // the first seconds of random load fill the host's caches and warm its code: not measured
    await randomLoadRun(server.origin, paths, options.connections, COLD_WARM_UP_SECONDS, headers);
  }
  for (let round = 1; round <= options.rounds; round++) {
    for (const { host, server, result: hostResult } of entries) {
      log(
        `serve cold ${host.name}: round ${round} of ${options.rounds}, ${list.length.toLocaleString("en-US")} URLs at random, ${options.connections} connections for ${options.duration} s…`,
      );
      const rss = sampleRss(server.pgid);
      const load = await randomLoadRun(server.origin, paths, options.connections, options.duration, headers);
      const peak = await rss.stop();
      if (peak !== null) hostResult.peakRssBytes = Math.max(hostResult.peakRssBytes ?? 0, peak);
      hostResult.rounds.push(load.requestsPerSecond);
      if (hostResult.requestsPerSecond === undefined || load.requestsPerSecond > hostResult.requestsPerSecond)
        Object.assign(hostResult, load);
    }
  }
  return cold;
}
