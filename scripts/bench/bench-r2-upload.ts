// R2 publication of an n-tool build into the local R2 Miniflare persists, then of a one-price edit and of one inserted
// tool: bodies sent (content-addressed: only those the bucket lacks), bytes, seconds; then the Worker's R2 reads per
// request, cold (each target once) and hot (the same again). The `r2` step of `npm run bench`, or alone:
// `npx tsx scripts/bench/bench-r2-upload.ts --n 80` (bench/out/r2-content-n, r2-dist-n, and the bucket dist-n.r2).
// Objects go in batches through the uploader Worker (scripts/hosts/cloudflare/uploader-worker.ts); local R2 still writes
// a SQLite row and a blob file per object, so the first upload of n = 1,000 (≈ 280,000 objects) takes minutes.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { startLocalWorker } from "../hosts/cloudflare/local-worker.ts";
import { type UploadSummary, uploadToR2 } from "../hosts/cloudflare/upload-r2.ts";
import { noReads, type R2Reads, READ_KINDS, readKindsOf, totalReads } from "../hosts/cloudflare/worker/r2-builds.ts";
import { changeOnePrice, insertToolMidList, writeBenchCatalog } from "./bench-catalog.ts";
import { runBuild } from "./run-build.ts";
import { lackOfSpace, OUT, distDir as serveDistDir } from "./workspace.ts";

// Its own catalog and build (not the serve step's dist-n): another step rebuilding dist-n would recycle the
// generation this upload reads.
const contentDir = (n: number) => join(OUT, `r2-content-${n}`);
const distDir = (n: number) => join(OUT, `r2-dist-${n}`);
/** Beside the serve step's dist-n, where start-cloudflare looks by default: the serve step can serve it (hosts.ts). */
export const benchBucketDir = (n: number) => `${serveDistDir(n)}.r2`;

type Measured = Pick<UploadSummary, "objects" | "sent" | "sentBytes" | "present" | "seconds"> & {
  objectsPerSecond: number;
};

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
  cold?: ReadsPerRequest;
  hot?: ReadsPerRequest;
}

const pick = ({ objects, sent, sentBytes, present, seconds }: UploadSummary): Measured => ({
  objects,
  sent,
  sentBytes,
  present,
  seconds,
  objectsPerSecond: Math.round(sent / seconds),
});

const none: Measured = { objects: 0, sent: 0, sentBytes: 0, present: 0, seconds: 0, objectsPerSecond: 0 };

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
        for (const kind of READ_KINDS) sum[kind] += kinds[kind] / targets.length;
      }
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
  // Its own tree and build generations, plus the bucket (about one more tree).
  const lack = await lackOfSpace(n, 3);
  if (lack) {
    log(`r2 n=${n}: skipped: ${lack}`);
    return { n, skipped: lack, files: 0, first: none, change: "", rebuildSeconds: 0, edit: none };
  }
  log(`r2 n=${n}: building…`);
  await writeBenchCatalog(n, contentDir(n));
  await runBuild(contentDir(n), distDir(n), buildArgs);
  const persist = benchBucketDir(n);
  await rm(persist, { recursive: true, force: true });
  const worker = await startLocalWorker({
    distDir: distDir(n),
    mode: "r2",
    r2Persist: persist,
    port: 0,
    uploader: true,
  });
  let closed = false;
  try {
    const bucket = await worker.uploadTarget();
    let shown = Date.now();
    const progress = (done: number, total: number) => {
      if (Date.now() - shown < 30_000) return;
      shown = Date.now();
      log(`r2 n=${n}: ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} objects…`);
    };
    log(`r2 n=${n}: first upload…`);
    const first = await uploadToR2(distDir(n), bucket, { onProgress: progress });
    const change = await changeOnePrice(contentDir(n), n);
    const rebuild = await runBuild(contentDir(n), distDir(n), buildArgs);
    log(`r2 n=${n}: ${change}; uploading the edit…`);
    const edit = await uploadToR2(distDir(n), bucket);
    const inserted = await insertToolMidList(contentDir(n), n);
    await runBuild(contentDir(n), distDir(n), buildArgs);
    log(`r2 n=${n}: ${inserted}; uploading it…`);
    const insert = await uploadToR2(distDir(n), bucket);
    await worker.close();
    closed = true;
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
      ...reads,
    };
  } finally {
    if (!closed) await worker.close();
    if (!keepBucket) await rm(persist, { recursive: true, force: true });
  }
}

const options = {
  n: { type: "string", default: "80", valueName: "TOOLS", description: "catalog size" },
  json: { type: "boolean", default: false, description: "print the result as one JSON object" },
} as const;

const SPEC: CommandSpec<typeof options> = {
  usage: "npx tsx scripts/bench/bench-r2-upload.ts --",
  summary:
    "Measures the R2 upload of an n-tool build into Miniflare's local R2, then of a one-price edit (objects sent, seconds).",
  options,
};

/** The bench report's section. */
export function r2Report(r: R2UploadResult): string {
  if (r.skipped) return `R2 upload (n = ${r.n.toLocaleString("en-US")}): skipped: ${r.skipped}`;
  // An edit's seconds are mostly hashing the unchanged files: objects/s says nothing there.
  const line = (what: string, m: Measured, rate: boolean) =>
    `  ${what.padEnd(22)} ${m.sent.toLocaleString("en-US").padStart(9)} bodies sent ${(m.sentBytes / 1e6).toFixed(1).padStart(8)} MB of ${m.objects.toLocaleString("en-US")} distinct ${m.seconds.toFixed(1).padStart(8)} s` +
    (rate ? ` ${m.objectsPerSecond.toLocaleString("en-US").padStart(7)} objects/s` : "");
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
    line("first upload", r.first, true),
    line("one-price edit", r.edit, false),
    `  (${r.change}; the rebuild took ${r.rebuildSeconds.toFixed(1)} s, not counted above)`,
    ...(r.insert ? [line("one inserted tool", r.insert, false), `  (${r.inserted})`] : []),
    reads("cold (each once)", r.cold),
    reads("hot (the same again)", r.hot),
  ]
    .filter(Boolean)
    .join("\n");
}

async function main(): Promise<void> {
  const values = parseCommandArgs(SPEC);
  const n = Number(values.n);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--n ${values.n} is no tool count`, 2);
  const result = await benchR2Upload(n, [], values.json ? () => {} : console.log);
  console.log(values.json ? JSON.stringify(result) : r2Report(result));
}

if (isMain(import.meta.url)) await runCommand(main, { json: () => process.argv.includes("--json") });
