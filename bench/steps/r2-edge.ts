// A catalog the page tree could not hold, published to the edge from this machine: `catalog:generate` n tools, the
// edge-only build (no list page), the upload to the local R2, `start:cloudflare --r2 --as-is`, then a seeded sample of
// URLs (pages at many limits and offsets and every other body the hash tree names, and every error kind) checked
// against what the build recorded: each body's SHA-256 and size in the hash tree (E2), each error body's file. Where a
// full tree fits (n ≤ 1,000) the same sample is also asked of the Node server over a full build, byte for byte.
// Part of the `r2` step of `npm run bench`, or alone: `npx tsx bench/steps/r2-edge.ts --n 10000`.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { etagFromSha256Hex } from "../../scripts/api/runtime/etag.ts";
import { type ErrorId, fill, layout, type RouteTable } from "../../scripts/api/runtime/route-table.ts";
import { type CommandSpec, isMain, parseCommandArgs, runCommand } from "../../scripts/cli/command.ts";
import { startServer } from "../../scripts/hosts/node/server/start-server.ts";
import { eachShardEntry } from "../../scripts/render/hash-tree.ts";
import { runMeasured } from "../measure/measured-run.ts";
import { sampleRss } from "../measure/rss-sampler.ts";
import { runBuild } from "../measure/run-build.ts";
import { positiveInt } from "../options.ts";
import { OUT, ROOT } from "../workspace/out.ts";

const contentDir = (n: number) => join(OUT, `edge-content-${n}`);
const distDir = (n: number) => join(OUT, `edge-dist-${n}`);
const fullDir = (n: number) => join(OUT, `edge-full-${n}`);
const bucketDir = (n: number) => join(OUT, `edge-dist-${n}.r2`);
/** The generator's seed, and the sample's. */
const SEED = 7;

export interface EdgeResult {
  n: number;
  seconds: { generate: number; build: number; upload: number; serving: number; total: number };
  /** peak RSS of each process (GNU time; the serving workerd sampled by process group), bytes */
  peakRss: { build: number | null; upload: number | null; serving: number | null };
  /** the tree, the bucket and the catalog on disk after the upload */
  diskBytes: number;
  buildFiles: number;
  upload: { writes: number; sentBytes: number; packs: number; shards: number };
  /** URLs asked, and those whose status, body or ETag differed from the build's record */
  sample: number;
  mismatches: string[];
  /** n ≤ 1,000: the same URLs asked of the Node server over a full build, those answered otherwise */
  node: { compared: number; mismatches: string[] } | null;
}

/** xorshift32: the same sample for the same catalog. */
function seeded(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

interface Expected {
  target: string;
  method: "GET" | "POST";
  status: number;
  /** the body's SHA-256 and size (hash tree), or the file whose bytes it must be (errors) */
  sha256?: string;
  file?: string;
}

/** ≥ 2,000 targets: seeded picks across the hash tree's shards (mostly pages), the fixed bodies, every error kind. */
function sampleOf(dist: string, table: RouteTable, total: number, count: number): Expected[] {
  const paths = layout(table.basePath);
  const random = seeded(SEED);
  const root = JSON.parse(readFileSync(join(dist, paths.syncRoot), "utf8")) as { data: Record<string, unknown> };
  const shards = Object.keys(root.data).sort();
  const picked = new Map<string, Expected>();
  // A few dozen shards, a few dozen entries each: pages of many lists, limits and offsets, and the other bodies.
  const perShard = 40;
  for (let tries = 0; picked.size < count && tries < count; tries++) {
    const shard = shards[Math.floor(random() * shards.length)]!;
    const entries: [string, string][] = [];
    eachShardEntry(readFileSync(join(dist, fill(paths.syncShard, { shard: `${shard}.json` })), "utf8"), (t, sha) =>
      entries.push([t, sha]),
    );
    for (let i = 0; i < perShard && picked.size < count; i++) {
      const [target, sha256] = entries[Math.floor(random() * entries.length)]!;
      picked.set(target, { target, method: "GET", status: 200, sha256 });
    }
  }
  const base = table.basePath;
  const error = (target: string, id: ErrorId, method: "GET" | "POST" = "GET", file = table.errors[id].file) => ({
    target,
    method,
    status: table.errors[id].status,
    file,
  });
  const beyond = (filter: string) => `errors/offset_out_of_range/${filter}.json`;
  const errors: Expected[] = [];
  for (let i = 0; i < 40; i++) {
    errors.push(
      error(`${base}/software?limit=${[0, 101, -1, "x", ""][i % 5]}`, "invalid_limit"),
      error(`${base}/software?offset=${["-1", "x", "01", ""][i % 4]}&limit=${1 + (i % 100)}`, "invalid_offset"),
      error(`${base}/software?category=no-such-${i}`, "category_not_found"),
      { target: `${base}/software?offset=${total + 1 + i}`, method: "GET", status: 400, file: beyond("all") },
      error(`${base}/software/no-such-tool-${i}`, "software_not_found"),
      error(`${base}/best/no-such-${i}`, "category_not_found"),
      error(`${base}/nope/${i}`, "not_found"),
      error(`${base}/search?q=Bad${i}`, "invalid_query"),
      error(`${base}/categories?i=${i}`, "method_not_allowed", "POST"),
    );
  }
  return [...picked.values(), ...errors];
}

interface Answer {
  status: number;
  body: Buffer;
  etag: string | null;
}

async function ask(origin: string, e: Expected): Promise<Answer> {
  // No Accept-Encoding: the identity body, byte for byte what the Node server writes.
  const res = await fetch(origin + e.target, { method: e.method, headers: { "accept-encoding": "identity" } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), etag: res.headers.get("etag") };
}

async function check(dist: string, e: Expected, got: Answer): Promise<string | null> {
  if (got.status !== e.status) return `${e.method} ${e.target}: ${got.status}, recorded ${e.status}`;
  if (e.sha256) {
    const sha = createHash("sha256").update(got.body).digest("hex");
    if (sha !== e.sha256) return `${e.target}: body ${sha.slice(0, 12)}, recorded ${e.sha256.slice(0, 12)}`;
    if (got.etag !== etagFromSha256Hex(e.sha256)) return `${e.target}: ETag ${got.etag}`;
    return null;
  }
  const expected = await readFile(join(dist, e.file!));
  return got.body.equals(expected) ? null : `${e.method} ${e.target}: not the body of ${e.file}`;
}

/** `npm run start:cloudflare -- --r2 --as-is` as a user starts it; its address once it listens. */
export async function startCloudflare(dist: string, persist: string) {
  const child = spawn(
    process.execPath,
    [join(ROOT, "scripts/launcher/launch.cjs"), join(ROOT, "scripts/commands/start-cloudflare.ts")].concat([
      "--dist",
      dist,
      "--r2",
      "--as-is",
      "--persist",
      persist,
    ]),
    { cwd: ROOT, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const rss = sampleRss(child.pid!);
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c));
  child.stderr!.on("data", (c: Buffer) => (output += c));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const at = /at (http:\/\/[^\s]+) \(/.exec(output)?.[1];
      if (at) {
        clearInterval(timer);
        resolve(at);
      }
    }, 50);
    child.on("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`start:cloudflare exited ${code}:\n${output.slice(-2000)}`));
    });
  });
  return {
    origin,
    async stop() {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {}
      await new Promise((r) => child.once("exit", r));
      return rss.stop();
    },
  };
}

export async function duBytes(...dirs: string[]): Promise<number> {
  const run = await runMeasured("du", ["-sbL", "--", ...dirs.flatMap((d) => [d, `${d}.builds`])]);
  return run.stdout
    .split("\n")
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line.split("\t")[0]), 0);
}

export async function benchEdge(n: number, log: (line: string) => void = console.log): Promise<EdgeResult> {
  const clock = () => performance.now() / 1000;
  await rm(bucketDir(n), { recursive: true, force: true });
  const t0 = clock();
  log(`edge n=${n}: catalog:generate…`);
  const gen = await runMeasured(process.execPath, [
    join(ROOT, "scripts/launcher/launch.cjs"),
    join(ROOT, "scripts/commands/catalog-generate.ts"),
    "--tools",
    String(n),
    "--seed",
    String(SEED),
    "--out",
    contentDir(n),
  ]);
  if (gen.code !== 0) throw new Error(`catalog:generate exited ${gen.code}: ${gen.stderr.slice(-1000)}`);
  const t1 = clock();
  log(`edge n=${n}: the edge-only build…`);
  await rm(distDir(n), { recursive: true, force: true });
  await rm(`${distDir(n)}.builds`, { recursive: true, force: true });
  const built = await runBuild(contentDir(n), distDir(n), ["--edge-only"]);
  const t2 = clock();
  log(`edge n=${n}: ${built.files.toLocaleString("en-US")} files in ${built.seconds.toFixed(1)} s; uploading…`);
  const upload = await runMeasured(
    process.execPath,
    [
      join(ROOT, "scripts/launcher/launch.cjs"),
      join(ROOT, "scripts/commands/upload-r2.ts"),
      "--dist",
      distDir(n),
      "--persist",
      bucketDir(n),
      "--json",
    ],
    { cwd: ROOT },
  );
  if (upload.code !== 0) throw new Error(`upload:r2 exited ${upload.code}: ${upload.stderr.slice(-1000)}`);
  const summary = JSON.parse(upload.stdout.trim().split("\n").at(-1)!) as EdgeResult["upload"];
  const t3 = clock();
  log(`edge n=${n}: uploaded in ${upload.seconds.toFixed(1)} s; start:cloudflare --r2…`);
  const server = await startCloudflare(distDir(n), bucketDir(n));
  const t4 = clock();
  const table = JSON.parse(await readFile(join(distDir(n), "routes.json"), "utf8")) as RouteTable;
  const sample = sampleOf(distDir(n), table, n, 2000);
  const mismatches: string[] = [];
  let servingRss: number | null;
  try {
    log(`edge n=${n}: serving; asking ${sample.length} URLs…`);
    for (const e of sample) {
      const problem = await check(distDir(n), e, await ask(server.origin, e));
      if (problem) mismatches.push(problem);
    }
  } finally {
    servingRss = await server.stop();
  }
  const diskBytes = await duBytes(contentDir(n), distDir(n)).then(async (b) => b + (await duBytes(bucketDir(n))));
  let node: EdgeResult["node"] = null;
  if (n <= 1000) {
    log(`edge n=${n}: a full build for the Node server…`);
    await runBuild(contentDir(n), fullDir(n), []);
    const nodeServer = await startServer({ distDir: fullDir(n), port: 0 });
    const edge = await startCloudflare(distDir(n), bucketDir(n));
    const differ: string[] = [];
    try {
      for (const e of sample) {
        const [a, b] = [await ask(nodeServer.url, e), await ask(edge.origin, e)];
        if (a.status !== b.status || !a.body.equals(b.body) || a.etag !== b.etag)
          differ.push(`${e.method} ${e.target}: Node ${a.status} ${a.etag}, Worker ${b.status} ${b.etag}`);
      }
    } finally {
      await nodeServer.close();
      await edge.stop();
    }
    node = { compared: sample.length, mismatches: differ };
  }
  return {
    n,
    seconds: { generate: t1 - t0, build: t2 - t1, upload: t3 - t2, serving: t4 - t3, total: t4 - t0 },
    peakRss: { build: built.peakRss, upload: upload.peakRss, serving: servingRss },
    diskBytes,
    buildFiles: built.files,
    upload: { writes: summary.writes, sentBytes: summary.sentBytes, packs: summary.packs, shards: summary.shards },
    sample: sample.length,
    mismatches,
    node,
  };
}

/** The bench report's section. */
export function edgeReport(r: EdgeResult): string {
  const mib = (b: number | null) => (b === null ? "n/a" : `${(b / 2 ** 20).toFixed(0)} MiB`);
  const s = r.seconds;
  return [
    `Edge publication from this machine (n = ${r.n.toLocaleString("en-US")}, edge-only build)`,
    `  generate ${s.generate.toFixed(1)} s, build ${s.build.toFixed(1)} s (${r.buildFiles.toLocaleString("en-US")} files), ` +
      `upload ${s.upload.toFixed(1)} s (${r.upload.writes} writes, ${(r.upload.sentBytes / 1e6).toFixed(1)} MB, ` +
      `${r.upload.packs} packs, ${r.upload.shards} shards), serving after ${s.serving.toFixed(1)} s: ${(s.total / 60).toFixed(1)} min in all`,
    `  peak RSS: build ${mib(r.peakRss.build)}, upload ${mib(r.peakRss.upload)}, serving ${mib(r.peakRss.serving)}; ` +
      `disk ${(r.diskBytes / 1e9).toFixed(2)} GB (catalog, tree, bucket)`,
    `  ${r.sample} URLs checked against the build's record: ${r.mismatches.length} differ${r.mismatches.length ? `: ${r.mismatches.slice(0, 5).join("; ")}` : ""}`,
    ...(r.node
      ? [
          `  the same ${r.node.compared} URLs, Worker vs the Node server over a full build: ${r.node.mismatches.length} differ${r.node.mismatches.length ? `: ${r.node.mismatches.slice(0, 5).join("; ")}` : ""}`,
        ]
      : []),
  ].join("\n");
}

const options = {
  n: { type: "string", default: "10000", valueName: "TOOLS", description: "catalog size" },
  json: { type: "boolean", default: false, description: "print the result as one JSON object" },
} as const;

const SPEC: CommandSpec<typeof options> = {
  usage: "npx tsx bench/steps/r2-edge.ts --",
  summary:
    "Generates an n-tool catalog, builds it edge-only, uploads it to the local R2, serves it with start:cloudflare --r2, " +
    "and checks a seeded sample of 2,000 URLs against the build's record (n ≤ 1,000: and against the Node server).",
  options,
};

async function main(): Promise<void> {
  const values = parseCommandArgs(SPEC);
  const n = positiveInt("n", values.n);
  const result = await benchEdge(n, values.json ? () => {} : console.log);
  console.log(values.json ? JSON.stringify(result) : edgeReport(result));
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => process.argv.includes("--json") });
