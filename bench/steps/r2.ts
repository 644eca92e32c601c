// R2 publication of an n-tool edge-only build (`npm run build -- --edge-only`: no list page, which the upload never
// reads) into the local R2 Miniflare persists, then of a one-price edit and of one inserted tool: write requests (Class A), bytes sent, bodies packed, seconds end to end (local R2's start-up included); the
// bucket's bytes after those three uploads and after a prune; then a series of inserted tools and a prune (the bucket
// against the live build's stored bytes); then the Worker's R2 reads per request, cold (each target once) and hot (the
// same again). The `r2` step of `npm run bench`, or alone: `npx tsx bench/steps/r2.ts --n 80`
// (bench/out/r2-content-n, r2-dist-n, and the bucket dist-n.r2).
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand } from "../../scripts/cli/command.ts";
import { startLocalWorker } from "../../scripts/hosts/cloudflare/local/workerd.ts";
import { readLive, readRecord } from "../../scripts/hosts/cloudflare/r2/bucket.ts";
import { progressLine } from "../../scripts/hosts/cloudflare/r2/progress.ts";
import { prune } from "../../scripts/hosts/cloudflare/r2/prune.ts";
import type { UploadTarget } from "../../scripts/hosts/cloudflare/r2/target.ts";
import type { Progress } from "../../scripts/hosts/cloudflare/r2/upload.ts";
import { type UploadSummary, uploadToR2 } from "../../scripts/hosts/cloudflare/r2/upload.ts";
import {
  noReads,
  type R2Reads,
  READ_KINDS,
  readKindsOf,
  totalReads,
} from "../../scripts/hosts/cloudflare/worker/r2-builds.ts";
import { runBuild } from "../measure/run-build.ts";
import { positiveInt } from "../options.ts";
import { changeOnePrice, insertToolMidList, writeBenchCatalog } from "../workspace/catalog.ts";
import { lackOfSpace, OUT, distDir as serveDistDir } from "../workspace/out.ts";
import { benchConformanceR2, type ConformanceResult, conformanceReport } from "./r2-conformance.ts";
import { benchEdge, type EdgeResult, edgeReport } from "./r2-edge.ts";
import { benchR2Pages, type R2PagesResult, r2PagesReport } from "./r2-pages.ts";

// Its own catalog and build (not the serve step's dist-n): another step rebuilding dist-n would recycle the
// generation this upload reads.
const contentDir = (n: number) => join(OUT, `r2-content-${n}`);
const distDir = (n: number) => join(OUT, `r2-dist-${n}`);
/** Beside the serve step's dist-n, where start-cloudflare looks by default: the serve step can serve it
 *  (bench/hosts/hosts.ts). */
export const benchBucketDir = (n: number) => `${serveDistDir(n)}.r2`;

type Measured = Pick<
  UploadSummary,
  | "objects"
  | "sent"
  | "sentBodyBytes"
  | "sentBytes"
  | "present"
  | "packs"
  | "shards"
  | "writes"
  | "lists"
  | "bytes"
  | "seconds"
>;

/** The bucket's bytes (packs, shards, records) against the live build's stored bytes. */
export interface BucketBytes {
  bucket: number;
  live: number;
}

/** Mean R2 reads per request of one kind of target: by what was read (X-R2-Read-Kinds), and in all. */
export type MeanReads = R2Reads & { total: number };

/** Mean R2 reads per request, by what answered. */
export interface ReadsPerRequest {
  requests: number;
  /** a body of the live build */
  body: MeanReads;
  /** an error the route table decides (bad query, unknown path) */
  routeError: MeanReads;
  /** an error found missing in the manifest (a slug no tool has, a 4 KiB slug) */
  missing: MeanReads;
}

export interface R2UploadResult {
  n: number;
  /** why it did not run, or null */
  skipped: string | null;
  files: number;
  first: Measured;
  change: string;
  /** rebuild after the edit (incremental), then its upload */
  rebuildSeconds: number;
  edit: Measured;
  inserted?: string;
  insert?: Measured;
  /** after the three uploads (three builds kept), and after a prune keeping the live one */
  afterUploads?: BucketBytes;
  afterPrune?: BucketBytes;
  /** a series of inserted tools, then a prune keeping the live build */
  series?: { inserts: number; writes: number; seconds: number; afterPrune: BucketBytes };
  cold?: ReadsPerRequest;
  hot?: ReadsPerRequest;
  /** the whole way to the edge (r2-edge.ts): at n, compared with the Node server, and at EDGE_N */
  edge?: EdgeResult[];
  /** the conformance suite in R2 mode over an n-tool catalog */
  conformance?: ConformanceResult;
  /** n ≤ PAGES_N: every page of the page tree against the Worker over the runs build's R2 upload (r2-pages.ts) */
  pages?: R2PagesResult;
}

/** Up to this size the r2 step compares every page of the page tree with the Worker's answer from R2. */
export const PAGES_N = 1000;

/** The catalog the edge must take from one machine (issue 40). */
export const EDGE_N = 10_000;

const pick = (s: UploadSummary): Measured => ({
  objects: s.objects,
  sent: s.sent,
  sentBodyBytes: s.sentBodyBytes,
  sentBytes: s.sentBytes,
  present: s.present,
  packs: s.packs,
  shards: s.shards,
  writes: s.writes,
  lists: s.lists,
  bytes: s.bytes,
  seconds: s.seconds,
});

const none: Measured = {
  objects: 0,
  sent: 0,
  sentBodyBytes: 0,
  sentBytes: 0,
  present: 0,
  packs: 0,
  shards: 0,
  writes: 0,
  lists: 0,
  bytes: 0,
  seconds: 0,
};

/** Inserted tools in the series before the prune: 50 as the issue sets, fewer where a build takes minutes. */
export const seriesInserts = (n: number) => (n <= 200 ? 50 : 5);

async function bucketBytes(target: UploadTarget): Promise<BucketBytes> {
  let bucket = 0;
  for (const prefix of ["packs/", "shards/", "builds/"]) for (const o of await target.list(prefix)) bucket += o.size;
  const live = await readLive(target);
  const record = live && (await readRecord(target, live.pointer.build));
  return { bucket, live: record?.storedBytes ?? 0 };
}

/** Requests a sample of targets once (cold), then again (hot), reading X-R2-Read-Kinds of each answer. */
async function readsPerRequest(origin: string, n: number): Promise<{ cold: ReadsPerRequest; hot: ReadsPerRequest }> {
  const bodies = [
    ...Array.from({ length: 300 }, (_, i) => `/v1/software?limit=${1 + (i % 100)}&offset=${(i * 7) % n}`),
    "/v1/categories",
    "/v1/openapi.json",
    "/v1/export/catalog.json",
  ];
  const routeErrors = ["/v1/software?limit=0", "/v1/nope", "/v1/search?q=Bad", "/v1/software?offset=x"];
  const missing = ["/v1/software/no-such-tool", `/v1/software/${"a".repeat(4096)}`, "/v1/best/no-such-category"];
  const round = async () => {
    const mean = async (targets: string[]): Promise<MeanReads> => {
      const sum = noReads();
      for (const target of targets) {
        const res = await fetch(origin + target);
        await res.arrayBuffer();
        const kinds = readKindsOf(res.headers.get("x-r2-read-kinds"));
        for (const kind of READ_KINDS) sum[kind] += kinds[kind];
      }
      // Counted whole, divided once: 303 sixths of a read each summed to a hair over one read per body.
      for (const kind of READ_KINDS) sum[kind] /= targets.length;
      return { ...sum, total: totalReads(sum) };
    };
    return {
      requests: bodies.length + routeErrors.length + missing.length,
      body: await mean(bodies),
      routeError: await mean(routeErrors),
      missing: await mean(missing),
    };
  };
  const cold = await round();
  return { cold, hot: await round() };
}

/** keepBucket: leave the filled bucket at benchBucketDir(n) for the serve step (removed with bench/out/). */
export async function benchR2Upload(
  n: number,
  buildArgs: string[] = [],
  log: (line: string) => void = console.log,
  keepBucket = false,
): Promise<R2UploadResult> {
  // Its own edge-only tree and build generations, plus the bucket: no list page, so a small part of a full tree.
  const lack = await lackOfSpace(n, 0.1);
  if (lack) {
    log(`r2 n=${n}: skipped: ${lack}`);
    return { n, skipped: lack, files: 0, first: none, change: "", rebuildSeconds: 0, edit: none };
  }
  log(`r2 n=${n}: building…`);
  await writeBenchCatalog(n, contentDir(n));
  buildArgs = [...buildArgs, "--edge-only"];
  await runBuild(contentDir(n), distDir(n), buildArgs);
  const persist = benchBucketDir(n);
  await rm(persist, { recursive: true, force: true });
  // Each upload end to end, as a user runs it: local R2 (workerd) started, the upload, workerd stopped.
  const withBucket = async <T>(task: (target: UploadTarget) => Promise<T>): Promise<T> => {
    const worker = await startLocalWorker({
      distDir: distDir(n),
      mode: "r2",
      r2Persist: persist,
      port: 0,
      uploader: true,
    });
    try {
      return await task(await worker.uploadTarget());
    } finally {
      await worker.close();
    }
  };
  let shown = Date.now();
  const onProgress = (p: Progress) => {
    if (Date.now() - shown < 30_000) return;
    shown = Date.now();
    log(`r2 n=${n}: ${progressLine(p)}`);
  };
  const upload = async () => {
    const started = performance.now();
    const summary = await withBucket((target) => uploadToR2(distDir(n), target, { onProgress }));
    return { ...summary, seconds: (performance.now() - started) / 1000 };
  };
  try {
    log(`r2 n=${n}: first upload…`);
    const first = await upload();
    const change = await changeOnePrice(contentDir(n), n);
    const rebuild = await runBuild(contentDir(n), distDir(n), buildArgs);
    log(`r2 n=${n}: ${change}; uploading the edit…`);
    const edit = await upload();
    const inserted = await insertToolMidList(contentDir(n), n);
    await runBuild(contentDir(n), distDir(n), buildArgs);
    log(`r2 n=${n}: ${inserted}; uploading it…`);
    const insert = await upload();
    const afterUploads = await withBucket(bucketBytes);
    const afterPrune = await withBucket(async (target) => {
      await prune(target, 1);
      return bucketBytes(target);
    });

    const reader = await startLocalWorker({
      distDir: distDir(n),
      mode: "r2",
      r2Persist: persist,
      port: 0,
      countReads: true,
    });
    let reads: Awaited<ReturnType<typeof readsPerRequest>>;
    try {
      reads = await readsPerRequest(reader.url, n);
    } finally {
      await reader.close();
    }

    const inserts = seriesInserts(n);
    log(`r2 n=${n}: ${inserts} inserted tools, one upload each, then a prune…`);
    const started = performance.now();
    let writes = 0;
    for (let k = 1; k <= inserts; k++) {
      await insertToolMidList(contentDir(n), n, k);
      await runBuild(contentDir(n), distDir(n), buildArgs);
      writes += (await upload()).writes;
    }
    const seconds = (performance.now() - started) / 1000;
    const edge = [await benchEdge(n, log)];
    if (n < EDGE_N) edge.push(await benchEdge(EDGE_N, log));
    const conformance = await benchConformanceR2(n, log);
    const pages = n <= PAGES_N ? await benchR2Pages(n, { inserts: 5, assets: true }, log) : undefined;
    const series = {
      inserts,
      writes,
      seconds,
      afterPrune: await withBucket(async (target) => {
        await prune(target, 1);
        return bucketBytes(target);
      }),
    };
    return {
      n,
      skipped: null,
      files: first.files,
      first: pick(first),
      change,
      rebuildSeconds: rebuild.seconds,
      edit: pick(edit),
      inserted,
      insert: pick(insert),
      afterUploads,
      afterPrune,
      series,
      ...reads,
      edge,
      conformance,
      ...(pages ? { pages } : {}),
    };
  } finally {
    if (!keepBucket) await rm(persist, { recursive: true, force: true });
  }
}

const options = {
  n: { type: "string", default: "80", valueName: "TOOLS", description: "catalog size" },
  json: { type: "boolean", default: false, description: "print the result as one JSON object" },
} as const;

const SPEC: CommandSpec<typeof options> = {
  usage: "npx tsx bench/steps/r2.ts --",
  summary:
    "Measures the R2 upload of an n-tool build into Miniflare's local R2, then of a one-price edit and inserted tools " +
    "(write requests, bytes, seconds), the bucket's bytes after a prune, and the Worker's R2 reads per request.",
  options,
};

/** The bench report's section. */
export function r2Report(r: R2UploadResult): string {
  if (r.skipped) return `R2 upload (n = ${r.n.toLocaleString("en-US")}): skipped: ${r.skipped}`;
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
  const line = (what: string, m: Measured) =>
    `  ${what.padEnd(18)} ${m.writes.toLocaleString("en-US").padStart(6)} writes ${m.lists} lists ` +
    `${mb(m.sentBytes).padStart(11)} sent (${m.sent.toLocaleString("en-US")} bodies of ` +
    `${mb(m.sentBodyBytes)} in ${m.packs} packs, ${m.shards} shards) ${m.seconds.toFixed(1).padStart(6)} s`;
  const bucket = (what: string, b: BucketBytes | undefined) =>
    b ? `  bucket ${what}: ${mb(b.bucket)}, ${(b.bucket / b.live).toFixed(2)}× the live build's ${mb(b.live)}` : "";
  const kinds = (m: MeanReads) =>
    `${m.total.toFixed(2)} (pointer ${m.pointer.toFixed(2)}, manifest ${m.manifest.toFixed(2)}, body ${m.body.toFixed(2)})`;
  const reads = (what: string, x: ReadsPerRequest | undefined) =>
    x
      ? [
          `  R2 reads per request, ${what}, ${x.requests} requests:`,
          `    a body ${kinds(x.body)}`,
          `    a route-decided error ${kinds(x.routeError)}`,
          `    missing in the manifest ${kinds(x.missing)}`,
        ].join("\n")
      : "";
  return [
    `R2 builds in Miniflare's local R2 (n = ${r.n.toLocaleString("en-US")}, ${r.files.toLocaleString("en-US")} files)`,
    `  (the tree: ${mb(r.first.bytes)}; writes are Class A requests: puts, multipart parts, lists apart)`,
    line("first upload", r.first),
    line("one-price edit", r.edit),
    `  (${r.change}; the rebuild took ${r.rebuildSeconds.toFixed(1)} s, not counted above)`,
    ...(r.insert ? [line("one inserted tool", r.insert), `  (${r.inserted})`] : []),
    bucket("after the three uploads", r.afterUploads),
    bucket("after a prune keeping the live build", r.afterPrune),
    ...(r.series
      ? [
          `  ${r.series.inserts} inserted tools: ${r.series.writes.toLocaleString("en-US")} writes, ${r.series.seconds.toFixed(0)} s`,
          bucket(`after those ${r.series.inserts} and a prune`, r.series.afterPrune),
        ]
      : []),
    reads("cold (each once)", r.cold),
    reads("hot (the same again)", r.hot),
    ...(r.edge ?? []).map(edgeReport),
    ...(r.conformance ? [conformanceReport(r.conformance)] : []),
    ...(r.pages ? [r2PagesReport(r.pages)] : []),
  ]
    .filter(Boolean)
    .join("\n");
}

async function main(): Promise<void> {
  const values = parseCommandArgs(SPEC);
  const n = positiveInt("n", values.n);
  const result = await benchR2Upload(n, [], values.json ? () => {} : console.log);
  console.log(values.json ? JSON.stringify(result) : r2Report(result));
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => process.argv.includes("--json") });
