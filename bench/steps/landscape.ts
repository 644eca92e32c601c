// Step "landscape" (issue 48 item 5): a catalog of the whole martech landscape on every full host, each figure as a
// user meets it. For each size (default 15,384 tools in 49 categories and 103,528 in 300, seed 7):
//   1. `catalog:generate`, then `npm run build -- --layout runs` as a child process: seconds, the build's bytes on disk
//      (du, the published generation), peak RSS (GNU time);
//   2. `npm run upload:r2 -- --json` into a local R2 bucket (write requests, bytes sent), then `start:cloudflare --r2
//      --as-is` answering its first request: generate → build → upload → serving, the whole way's minutes, peak RSS and
//      disk (catalog, tree, bucket);
//   3. a rebuild with nothing changed (the first rebuild after a build into an empty --out clones the published tree:
//      shown, not judged, as in the incremental step);
//   4. the Node server (`npm run serve`) and nginx (`npm run start:nginx`) over the runs build answering a seeded sample
//      of ≥ 2,000 URLs and every error kind, each answer's status and decoded body checked against the build's files
//      (bench/hosts/landscape-sample.ts), asked with `Accept-Encoding: gzip` through a counting proxy (bytes on the
//      wire, headers included);
//   5. `updateMirror` (npm run mirror) copying from the Worker over the uploaded bucket (the deployed API) through a
//      counting proxy: the first copy's disk and wire;
//   6. `npm run dev -- --layout runs` started on a copy of the catalog;
//   7. one price edit, then one inserted tool, both in the largest category: each rebuilt as `npm run build -- --layout
//      runs` runs it (seconds), uploaded (writes, bytes sent), mirrored (bytes on the wire; the mirror's counts), then
//      written into dev's copy: seconds from the file written to dev answering the new body.
// Its folders under bench/out (landscape-*) are removed after each size unless --keep.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import type { BuildIndexText } from "../../scripts/api/runtime/build-index.ts";
import { createResolver } from "../../scripts/api/runtime/resolve-request.ts";
import type { RouteTable } from "../../scripts/api/runtime/route-table.ts";
import { updateMirror } from "../../scripts/mirror/update-mirror.ts";
import { eachShardEntry } from "../../scripts/render/hash-tree.ts";
import { HOSTS } from "../hosts/hosts.ts";
import {
  answerOracle,
  type ExpectedAnswer,
  landscapeSample,
  type RunsBuildView,
  type SampleRequest,
} from "../hosts/landscape-sample.ts";
import type { HostProcess } from "../hosts/process.ts";
import { runMeasured } from "../measure/measured-run.ts";
import { runBuild } from "../measure/run-build.ts";
import { startWireProxy, type WireProxy } from "../measure/wire-proxy.ts";
import {
  applyChange,
  type CatalogChange,
  generateLandscape,
  insertInLargest,
  LANDSCAPE_SEED,
  type LandscapeSize,
  priceEditInLargest,
} from "../workspace/landscape-catalog.ts";
import { OUT, ROOT } from "../workspace/out.ts";
import { duBytes, startCloudflare } from "./r2-edge.ts";

/** URLs of the sample before the error kinds are added. */
export const SAMPLE_URLS = 2000;
const BUILD_ARGS = ["--layout", "runs"];

const dir = (n: number, what: string) => join(OUT, `landscape-${what}-${n}`);

export interface UploadFigures {
  writes: number;
  sentBytes: number;
  seconds: number;
  peakRss: number | null;
}

export interface HostSample {
  name: string;
  asked: number;
  failed: number;
  /** the first failures, in words */
  failures: string[];
  /** failures by what the URL tests */
  failedKinds: Record<string, number>;
  /** bytes on the wire, both ways, with gzip accepted: headers, framing and bodies as sent */
  wireDown: number;
  wireUp: number;
  /** the identity bodies' bytes, for comparison */
  bodyBytes: number;
  seconds: number;
}

export interface MirrorFigures {
  wireDown: number;
  wireUp: number;
  requests: number;
  shardsFetched: number;
  bodiesFetched: number;
  piecesFetched: number;
  indexBytes: number;
  bodyBytes: number;
  pieceBytes: number;
  seconds: number;
}

/** A body or shard the hash tree names, changed by one edit. */
export interface ChangedBody {
  target: string;
  bytes: number;
  /** its gzip (level 6) size: what a host that compresses would send */
  gzipBytes: number;
}

export interface LandscapeChange {
  what: string;
  /** the faster of the samples (wall seconds of `npm run build -- --layout runs`) */
  rebuildSeconds: number;
  /** every sample, each after its own change (the first is the change uploaded and mirrored) */
  rebuildSamples?: number[];
  /** the build's own seconds (Node's start-up aside) */
  rebuildReportedSeconds: number;
  /** the bodies and shards whose hash the change moved (the tree's diff), largest first */
  changed: ChangedBody[];
  rebuildPeakRss: number | null;
  upload: UploadFigures;
  mirror: MirrorFigures;
  /** seconds from the content file written to `npm run dev` answering its new body; null when it never did */
  devSeconds: number | null;
  devSamples?: (number | null)[];
  /** what dev printed meanwhile (its last lines: what its rebuild did) */
  devPrinted?: string[];
}

export interface LandscapeResult {
  n: number;
  categories: number;
  /** the machine's 1-minute load average when the size started and when it ended (2 cores: above 2, others ran) */
  loadAverage?: [number, number];
  seconds: { generate: number; build: number; upload: number; serving: number; total: number };
  build: { files: number; diskBytes: number; peakRss: number | null; reportedSeconds?: number };
  upload: UploadFigures;
  servingPeakRss: number | null;
  /** catalog, tree (every generation) and bucket after the first upload */
  diskBytes: number;
  /** a rebuild with nothing changed right after the first build (a hard-link clone of the published tree) */
  firstRebuildSeconds: number;
  hosts: HostSample[];
  mirror: { diskBytes: number } & MirrorFigures;
  /** `npm run dev -- --layout runs`: seconds to its first answer, and to its first rebuild (a tool file rewritten with
   *  the same content: no served file changes; the clone every first rebuild makes, not judged) */
  dev: { layout: "runs"; startSeconds: number; firstRebuildSeconds: number | null };
  price: LandscapeChange;
  insert: LandscapeChange;
}

async function uploadR2(dist: string, bucket: string): Promise<UploadFigures> {
  const run = await runMeasured(
    process.execPath,
    [
      join(ROOT, "scripts/launcher/launch.cjs"),
      join(ROOT, "scripts/commands/upload-r2.ts"),
      ...["--dist", dist, "--persist", bucket, "--json"],
    ],
    { cwd: ROOT },
  );
  if (run.code !== 0) throw new Error(`upload:r2 exited ${run.code}: ${run.stderr.slice(-1000)}`);
  const s = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { writes: number; sentBytes: number };
  return { writes: s.writes, sentBytes: s.sentBytes, seconds: run.seconds, peakRss: run.peakRss };
}

/** The runs build behind `dist` as the sample and the oracle read it (runs and offsets files cached once read). */
async function openBuild(dist: string) {
  const root = await realpath(dist);
  const table = JSON.parse(await readFile(join(root, "routes.json"), "utf8")) as RouteTable;
  const index = JSON.parse(await readFile(join(root, "build-index.json"), "utf8")) as BuildIndexText;
  if (index.layout !== "runs") throw new Error(`${dist} is a ${index.layout} build, not runs`);
  const view: RunsBuildView = {
    table,
    files: index.files.map(([f]) => f),
    lists: Object.fromEntries(
      Object.entries(index.lists).map(([filter, l]) => [filter, { category: l.category, total: l.lengths.length }]),
    ),
  };
  const runs = new Map<string, Buffer>();
  const oracle = answerOracle(view, {
    read: (file) => {
      if (!file.startsWith("runs/")) return readFileSync(join(root, file));
      let run = runs.get(file);
      if (!run) runs.set(file, (run = readFileSync(join(root, file))));
      return run;
    },
    offsets: (filter) => {
      try {
        const bytes = readFileSync(join(root, `runs/${filter}.offsets`));
        return new Uint32Array(new Uint8Array(bytes).buffer);
      } catch {
        return null;
      }
    },
  });
  return { view, oracle };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** One request with Accept-Encoding: gzip; the status, headers and decoded body. */
function ask(origin: string, r: SampleRequest): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${origin}${r.target}`,
      { method: r.method, agent, headers: { "accept-encoding": "gzip" }, timeout: 120_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.once("error", reject);
        res.once("end", () => {
          const raw = Buffer.concat(chunks);
          const coding = res.headers["content-encoding"];
          try {
            const body = coding === "gzip" ? gunzipSync(raw) : coding === "br" ? brotliDecompressSync(raw) : raw;
            resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body });
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.once("timeout", () => req.destroy(new Error(`${r.target}: no answer in 120 s`)));
    req.once("error", reject);
    req.end();
  });
}

/** The sample asked of one host through a counting proxy, 8 at a time; each answer against the oracle's. */
async function askSample(
  name: string,
  host: HostProcess,
  sample: SampleRequest[],
  oracle: (method: string, target: string) => ExpectedAnswer,
): Promise<HostSample> {
  const proxy = await startWireProxy(host.origin);
  const started = performance.now();
  const result: HostSample = {
    name,
    asked: sample.length,
    failed: 0,
    failures: [],
    failedKinds: {},
    wireDown: 0,
    wireUp: 0,
    bodyBytes: 0,
    seconds: 0,
  };
  const fail = (r: SampleRequest, why: string) => {
    result.failed++;
    result.failedKinds[r.kind] = (result.failedKinds[r.kind] ?? 0) + 1;
    if (result.failures.length < 10) result.failures.push(`${r.method} ${r.target.slice(0, 160)}: ${why}`);
  };
  try {
    let next = 0;
    const lane = async () => {
      while (next < sample.length) {
        const r = sample[next++]!;
        const want = oracle(r.method, r.target);
        result.bodyBytes += want.body.byteLength;
        try {
          const got = await ask(proxy.origin, r);
          if (got.status !== want.status) fail(r, `status ${got.status}, the build says ${want.status}`);
          else if (!got.type.startsWith("application/json")) fail(r, `Content-Type ${got.type}`);
          else if (!got.body.equals(want.body))
            fail(r, `${got.body.byteLength} bytes unlike the build's ${want.body.byteLength} (${want.from})`);
        } catch (e) {
          fail(r, (e as Error).message);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, lane));
  } finally {
    const wire = proxy.take();
    result.wireDown = wire.down;
    result.wireUp = wire.up;
    result.seconds = (performance.now() - started) / 1000;
    agent.destroy();
    await proxy.close();
  }
  return result;
}

/** Polls `check` every 50 ms until it gives a value, for at most `ms`; null when it never did. */
async function poll<T>(ms: number, check: () => Promise<T | undefined>): Promise<T | null> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

const bodyOf = async (url: string) => {
  const res = await fetch(url, { headers: { "accept-encoding": "identity" } });
  const body = Buffer.from(await res.arrayBuffer());
  return res.status === 200 ? body : null;
};

/** `npm run dev -- --layout runs` as a user starts it, on a free port; its API address once it serves. */
async function startDev(content: string, out: string, timeoutMs: number) {
  // its own process group, so that the launcher and what it starts stop together
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "scripts/launcher/launch.cjs"),
      join(ROOT, "scripts/commands/dev.ts"),
      ...["--content", content, "--out", out, "--layout", "runs"],
    ],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  // what dev printed (its build lines say what each rebuild did); bounded, though dev prints a line or two an edit
  const keep = (c: Buffer) => {
    if (output.length < 4_000_000) output += c.toString();
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is gone
    }
  };
  const stop = async () => {
    signal("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    signal("SIGKILL");
  };
  const api = await poll(timeoutMs, async () => {
    if (child.exitCode !== null) throw new Error(`npm run dev exited ${child.exitCode}:\n${output.slice(-2000)}`);
    const url = /API: (http:\/\/\S+\/v1)/.exec(output)?.[1];
    return url && output.includes("for changes") ? url : undefined;
  }).catch(async (e) => {
    await stop();
    throw e;
  });
  if (!api) {
    await stop();
    throw new Error(`npm run dev did not serve within ${timeoutMs / 1000} s:\n${output.slice(-2000)}`);
  }
  return { api, stop, output: () => output };
}

/** Waits until the host behind `origin` answers the hash tree's root of the build now published at `dist`. */
async function waitForBuild(origin: string, dist: string): Promise<void> {
  const root = await readFile(join(await realpath(dist), "v1/sync/index.json"));
  const seen = await poll(30_000, async () =>
    (await bodyOf(`${origin}/v1/sync/index.json`))?.equals(root) ? true : undefined,
  );
  if (!seen) throw new Error(`${origin} did not follow the new build of ${dist} within 30 s`);
}

type Tree = Map<string, { sha256: string; size: number }>;

/** Every body the hash tree of the build at `dist` names (lists aside), and its shards, by target. */
async function treeOf(dist: string): Promise<Tree> {
  const root = await realpath(dist);
  const tree: Tree = new Map();
  const index = JSON.parse(await readFile(join(root, "v1/sync/index.json"), "utf8")) as {
    data: Record<string, { sha256: string; size: number }>;
  };
  for (const [name, entry] of Object.entries(index.data)) {
    const file = `v1/sync/${name}.json`;
    tree.set(`/${file}`, entry);
    eachShardEntry(await readFile(join(root, file), "utf8"), (target, sha256, size) =>
      tree.set(target, { sha256, size }),
    );
  }
  return tree;
}

/** What the tree at `dist` names that `before` did not (or with another hash), largest first, each also gzipped. */
async function changedBodies(before: Tree, dist: string): Promise<ChangedBody[]> {
  const root = await realpath(dist);
  const table = JSON.parse(await readFile(join(root, "routes.json"), "utf8")) as RouteTable;
  const resolver = createResolver(table);
  const changed: ChangedBody[] = [];
  for (const [target, entry] of await treeOf(dist)) {
    if (before.get(target)?.sha256 === entry.sha256) continue;
    const r = resolver.resolve("GET", target, () => true);
    const file = r instanceof Promise || r.kind !== "file" ? null : r.file;
    const body = file ? await readFile(join(root, file)) : null;
    changed.push({ target, bytes: entry.size, gzipBytes: body ? gzipSync(body).byteLength : 0 });
  }
  return changed.sort((a, b) => b.bytes - a.bytes);
}

/** `npm run mirror` of the deployed API into `out`: the Worker over the bucket the build was uploaded to (the edge
 *  compresses for a client that accepts it, as workerd does locally), started for this copy alone, through a proxy
 *  that counts the bytes on the wire. */
async function mirrorFromWorker(dist: string, bucket: string, out: string): Promise<MirrorFigures> {
  const worker = await startCloudflare(dist, bucket);
  try {
    const proxy = await startWireProxy(worker.origin);
    try {
      return await mirrorThrough(proxy, out);
    } finally {
      await proxy.close();
    }
  } finally {
    await worker.stop();
  }
}

async function mirrorThrough(proxy: WireProxy, out: string): Promise<MirrorFigures> {
  proxy.take();
  const m = await updateMirror(`${proxy.origin}/v1`, out);
  const wire = proxy.take();
  return {
    wireDown: wire.down,
    wireUp: wire.up,
    requests: m.requests,
    shardsFetched: m.shardsFetched,
    bodiesFetched: m.bodiesFetched,
    piecesFetched: m.piecesFetched,
    indexBytes: m.indexBytes,
    bodyBytes: m.bodyBytes,
    pieceBytes: m.pieceBytes,
    seconds: m.seconds,
  };
}

async function removeLandscape(n: number): Promise<void> {
  for (const what of ["content", "dist", "dev-content", "dev-dist", "mirror"])
    for (const suffix of ["", ".builds", ".copies", ".r2"])
      await rm(`${dir(n, what)}${suffix}`, { recursive: true, force: true });
}

export async function benchLandscapeSize(
  size: LandscapeSize,
  log: (line: string) => void,
  keep = false,
): Promise<LandscapeResult> {
  const n = size.tools;
  const say = (line: string) => log(`landscape n=${n}: ${line}`);
  const [content, dist, bucket] = [dir(n, "content"), dir(n, "dist"), `${dir(n, "dist")}.r2`];
  const [devContent, devDist, mirror] = [dir(n, "dev-content"), dir(n, "dev-dist"), dir(n, "mirror")];
  await removeLandscape(n);
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const clock = () => performance.now() / 1000;
    const loadAtStart = loadavg()[0]!;
    const t0 = clock();
    say(`catalog:generate --tools ${n} --categories ${size.categories} --seed ${LANDSCAPE_SEED}…`);
    await generateLandscape(size, content);
    const t1 = clock();
    say("npm run build -- --layout runs…");
    const built = await runBuild(content, dist, BUILD_ARGS);
    const t2 = clock();
    const buildDisk = await runMeasured("du", ["-sbL", "--", dist]).then((r) => Number(r.stdout.split("\t")[0]));
    say(
      `${built.files.toLocaleString("en-US")} files, ${(buildDisk / 1e6).toFixed(1)} MB in ${built.seconds.toFixed(1)} s; upload:r2…`,
    );
    const upload = await uploadR2(dist, bucket);
    const t3 = clock();
    say(`${upload.writes} writes, ${(upload.sentBytes / 1e6).toFixed(1)} MB sent; start:cloudflare --r2…`);
    const worker = await startCloudflare(dist, bucket);
    const first = await poll(120_000, async () => ((await bodyOf(`${worker.origin}/v1/software`)) ? true : undefined));
    const t4 = clock();
    const servingPeakRss = await worker.stop();
    if (!first) throw new Error("start:cloudflare --r2 gave no first page within 120 s");
    const diskBytes = (await duBytes(content, dist)) + (await duBytes(bucket));

    say("a rebuild with nothing changed (the first after a build into an empty --out)…");
    const firstRebuild = await runBuild(content, dist, BUILD_ARGS);

    const { view, oracle } = await openBuild(dist);
    const sample = landscapeSample(view, LANDSCAPE_SEED, SAMPLE_URLS);
    const hosts: HostSample[] = [];
    let node: HostProcess | undefined;
    for (const name of ["node server", "nginx generated"]) {
      const host = HOSTS.find((h) => h.name === name)!;
      const why = host.unavailable();
      if (why) throw new Error(`${name}: ${why}`);
      say(`${name}: ${sample.length} URLs…`);
      const running = await host.start(dist, "");
      stops.push(running.stop);
      hosts.push(await askSample(name, running, sample, oracle));
      say(`${name}: ${hosts.at(-1)!.failed} failed`);
      if (name === "node server") node = running;
      else await running.stop();
    }

    say("npm run mirror, a first copy from the Worker over the uploaded bucket…");
    const firstCopy = await mirrorFromWorker(dist, bucket, mirror);
    const mirrorCopies = await runMeasured("du", ["-sb", "--", `${mirror}.copies`]).then((r) =>
      Number(r.stdout.split("\t")[0]),
    );
    say(`mirror: ${(mirrorCopies / 1e6).toFixed(1)} MB on disk ; npm run dev -- --layout runs…`);

    await cp(content, devContent, { recursive: true });
    const devStarted = clock();
    const dev = await startDev(devContent, devDist, 20 * 60_000);
    stops.push(dev.stop);
    const devStartSeconds = clock() - devStarted;
    // Dev's first rebuild clones the published tree (as the CLI's first above): a tool file rewritten with the same
    // content (no served file changes), timed and shown, not judged.
    const [warmFile] = (await readdir(join(devContent, "tools"))).sort();
    const warmPath = join(devContent, "tools", warmFile!);
    const before = dev.output().length;
    const warmWritten = performance.now();
    await writeFile(warmPath, `${JSON.stringify(JSON.parse(await readFile(warmPath, "utf8")))}\n`);
    const warmed = await poll(600_000, async () =>
      dev.output().slice(before).includes("no served file changed") ? performance.now() : undefined,
    );
    const devFirstRebuildSeconds = warmed === null ? null : (warmed - warmWritten) / 1000;

    /** The change written into dev's copy: seconds until dev answers the body the CLI's build holds, and what dev
     *  printed meanwhile. */
    const devAnswers = async (made: CatalogChange) => {
      const want = await readFile(join(await realpath(dist), `v1/software/${made.slug}.json`));
      const mark = dev.output().length;
      const written = performance.now();
      await writeFile(join(devContent, made.file), made.text);
      const answered = await poll(120_000, async () =>
        (await bodyOf(`${dev.api}/software/${made.slug}`))?.equals(want) ? performance.now() : undefined,
      );
      const printed = dev.output().slice(mark).trim().split("\n").slice(-3);
      return {
        seconds: answered === null ? null : (answered - written) / 1000,
        printed: printed.map((l) => l.slice(0, 300)),
      };
    };
    const change = async (made: CatalogChange): Promise<LandscapeChange> => {
      say(`${made.what}: rebuilding…`);
      await applyChange(content, made);
      const treeBefore = await treeOf(dist);
      const rebuild = await runBuild(content, dist, BUILD_ARGS);
      const changed = await changedBodies(treeBefore, dist);
      await waitForBuild(node!.origin, dist);
      say(`rebuilt in ${rebuild.seconds.toFixed(2)} s; upload:r2…`);
      const up = await uploadR2(dist, bucket);
      say(`${up.writes} writes, ${(up.sentBytes / 1e3).toFixed(1)} kB; mirroring…`);
      const synced = await mirrorFromWorker(dist, bucket, mirror);
      say(`mirror: ${(synced.wireDown / 1e3).toFixed(1)} kB on the wire; npm run dev…`);
      const inDev = await devAnswers(made);
      return {
        what: made.what,
        rebuildSeconds: rebuild.seconds,
        rebuildReportedSeconds: rebuild.reportedSeconds,
        rebuildSamples: [rebuild.seconds],
        changed,
        rebuildPeakRss: rebuild.peakRss,
        upload: up,
        mirror: synced,
        devSeconds: inDev.seconds,
        devSamples: [inDev.seconds],
        devPrinted: inDev.printed,
      };
    };
    /** A second sample of the timed parts (rebuild, dev), after its own change: on a shared 2-core machine one
     *  sample swings by half; the row is the faster of two, as the incremental step's (uploads and mirror: the first). */
    const again = async (first: LandscapeChange, made: CatalogChange): Promise<LandscapeChange> => {
      say(`${made.what}: rebuilding (second sample)…`);
      await applyChange(content, made);
      const rebuild = await runBuild(content, dist, BUILD_ARGS);
      const inDev = await devAnswers(made);
      const rebuildSamples = [...first.rebuildSamples!, rebuild.seconds];
      const devSamples = [...first.devSamples!, inDev.seconds];
      const timed = devSamples.filter((x): x is number => x !== null);
      return {
        ...first,
        rebuildSeconds: Math.min(...rebuildSamples),
        rebuildReportedSeconds: Math.min(first.rebuildReportedSeconds, rebuild.reportedSeconds),
        rebuildSamples,
        devSeconds: timed.length === devSamples.length ? Math.min(...timed) : null,
        devSamples,
      };
    };
    const priceFirst = await change(await priceEditInLargest(content, size));
    const insertFirst = await change(await insertInLargest(content, size));
    const price = await again(priceFirst, await priceEditInLargest(content, size));
    const insert = await again(insertFirst, await insertInLargest(content, size, 2));

    return {
      n,
      categories: size.categories,
      loadAverage: [loadAtStart, loadavg()[0]!],
      seconds: { generate: t1 - t0, build: t2 - t1, upload: t3 - t2, serving: t4 - t3, total: t4 - t0 },
      build: {
        files: built.files,
        diskBytes: buildDisk,
        peakRss: built.peakRss,
        reportedSeconds: built.reportedSeconds,
      },
      upload,
      servingPeakRss,
      diskBytes,
      firstRebuildSeconds: firstRebuild.seconds,
      hosts,
      mirror: { diskBytes: mirrorCopies, ...firstCopy },
      dev: { layout: "runs", startSeconds: devStartSeconds, firstRebuildSeconds: devFirstRebuildSeconds },
      price,
      insert,
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (!keep) await removeLandscape(n);
  }
}

/** Each command the step times run once on a tiny catalog first: the launcher bundles a command on its first run
 *  from a checkout (seconds), which a user pays once, not at every build. */
async function warmUp(): Promise<void> {
  const [content, dist] = [dir(0, "content"), dir(0, "dist")];
  try {
    await generateLandscape({ tools: 20, categories: 3 }, content);
    await runBuild(content, dist, BUILD_ARGS);
    for (const command of ["upload-r2", "dev", "serve", "start-cloudflare"])
      await runMeasured(
        process.execPath,
        [join(ROOT, "scripts/launcher/launch.cjs"), join(ROOT, `scripts/commands/${command}.ts`), "--help"],
        { cwd: ROOT },
      );
  } finally {
    await removeLandscape(0);
  }
}

/** A size that did not run to the end: why. */
export interface LandscapeFailure {
  n: number;
  categories: number;
  failed: string;
}

export async function benchLandscape(
  sizes: LandscapeSize[],
  log: (line: string) => void,
  keep = false,
): Promise<(LandscapeResult | LandscapeFailure)[]> {
  log("landscape: each timed command once on 20 tools (the launcher's bundles)…");
  await warmUp();
  const results: (LandscapeResult | LandscapeFailure)[] = [];
  for (const size of sizes)
    try {
      results.push(await benchLandscapeSize(size, log, keep));
    } catch (e) {
      // the other sizes' figures are kept; this size's rows are n/a (a miss), its cause printed
      const failed = (e as Error).message.split("\n").slice(0, 3).join(" ").slice(0, 500);
      log(`landscape n=${size.tools}: failed: ${failed}`);
      results.push({ n: size.tools, categories: size.categories, failed });
    }
  return results;
}

const samples = (xs: (number | null)[] | undefined) =>
  xs && xs.length > 1
    ? `best of ${xs.length}: ${xs.map((x) => (x === null ? "never" : x.toFixed(2))).join(", ")}`
    : "one sample";
const sum = (bodies: ChangedBody[], key: "bytes" | "gzipBytes") => bodies.reduce((t, b) => t + b[key], 0);
/** What a mirror fetches whole of the changed bodies: all but the export, which it joins from pieces. */
const fetched = (c: LandscapeChange) => c.changed.filter((b) => !b.target.endsWith("/export/catalog.json"));

/** The bench report's section. */
export function landscapeReport(results: (LandscapeResult | LandscapeFailure)[]): string {
  const mb = (b: number) => `${(b / 1e6).toFixed(2)} MB`;
  const kb = (b: number) => `${(b / 1e3).toFixed(1)} kB`;
  const mib = (b: number | null) => (b === null ? "n/a" : `${(b / 2 ** 20).toFixed(0)} MiB`);
  const s = (x: number | null) => (x === null ? "never" : `${x.toFixed(2)} s`);
  const lines = [
    "LANDSCAPE (runs layout, seed 7; every figure as a user meets it: child processes, bytes on the wire with gzip accepted)",
  ];
  for (const r of results) {
    if ("failed" in r) {
      lines.push(`  n = ${r.n.toLocaleString("en-US")}, ${r.categories} categories: failed: ${r.failed}`);
      continue;
    }
    const t = r.seconds;
    const changeLine = (label: string, c: LandscapeChange) =>
      `  ${label}: rebuild ${s(c.rebuildSeconds)} (${mib(c.rebuildPeakRss)}; ${samples(c.rebuildSamples)}), dev answers after ` +
      `${s(c.devSeconds)} (${samples(c.devSamples)}); ` +
      `R2 ${c.upload.writes} writes, ${kb(c.upload.sentBytes)} sent; mirror ${kb(c.mirror.wireDown)} down ` +
      `(${c.mirror.requests} requests: ${c.mirror.shardsFetched} shards, ${c.mirror.bodiesFetched} bodies, ` +
      `${c.mirror.piecesFetched} pieces; ${kb(c.mirror.indexBytes + c.mirror.bodyBytes + c.mirror.pieceBytes)} decoded)\n` +
      `    (${c.what}; the build's own ${s(c.rebuildReportedSeconds)})\n` +
      `    the tree changed ${c.changed.length} bodies and shards; but the export (made of pieces) ` +
      `${kb(sum(fetched(c), "bytes"))}, ${kb(sum(fetched(c), "gzipBytes"))} gzipped: ` +
      c.changed
        .slice(0, 4)
        .map((b) => `${b.target} ${kb(b.bytes)}`)
        .join(", ") +
      (c.devPrinted?.length ? `\n    dev printed: ${c.devPrinted.join(" | ")}` : "");
    lines.push(
      `  n = ${r.n.toLocaleString("en-US")}, ${r.categories} categories: generate ${t.generate.toFixed(1)} s, build ` +
        `${t.build.toFixed(1)} s (the build's own ${r.build.reportedSeconds?.toFixed(1) ?? "n/a"} s; ${r.build.files.toLocaleString("en-US")} files, ${mb(r.build.diskBytes)}, ` +
        `${mib(r.build.peakRss)}), upload ${t.upload.toFixed(1)} s (${r.upload.writes} writes, ${mb(r.upload.sentBytes)}, ` +
        `${mib(r.upload.peakRss)}), serving after ${t.serving.toFixed(1)} s (${mib(r.servingPeakRss)}): ` +
        `${(t.total / 60).toFixed(1)} min; disk ${(r.diskBytes / 1e9).toFixed(2)} GB (catalog, tree, bucket)` +
        (r.loadAverage ? `; load average ${r.loadAverage.map((l) => l.toFixed(1)).join(" → ")} (1 min)` : ""),
      `  a rebuild with nothing changed right after: ${r.firstRebuildSeconds.toFixed(2)} s (a clone of the published tree, not judged)`,
      ...r.hosts.map(
        (h) =>
          `  ${h.name}: ${h.asked} URLs, ${h.failed} failed${
            h.failed
              ? ` (${Object.entries(h.failedKinds)
                  .map(([k, v]) => `${k} ${v}`)
                  .join(", ")}: ${h.failures.slice(0, 3).join("; ")})`
              : ""
          }; ` + `${mb(h.wireDown)} on the wire (identity bodies ${mb(h.bodyBytes)}) in ${h.seconds.toFixed(1)} s`,
      ),
      `  mirror, first copy: ${mb(r.mirror.diskBytes)} on disk, ${mb(r.mirror.wireDown)} on the wire, ${r.mirror.requests} requests, ${r.mirror.seconds.toFixed(1)} s`,
      `  npm run dev -- --layout runs: serving after ${r.dev.startSeconds.toFixed(1)} s; its first rebuild (a file ` +
        `rewritten, nothing changed: the clone, not judged) served after ${s(r.dev.firstRebuildSeconds)}`,
      changeLine("one price edit", r.price),
      changeLine("one inserted tool", r.insert),
    );
  }
  return lines.join("\n");
}
