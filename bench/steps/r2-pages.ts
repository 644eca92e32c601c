// Every page, byte for byte, from the pieces in R2 (L1, L2, issue 48 item 3): the benchmark's n-tool catalog built
// in runs (no page file) and uploaded to the local R2, then `inserts` tools inserted mid-list, each rebuilt and
// uploaded (so the lists' pieces lie in several packs, as after a day of edits); then the same catalog built as a page
// tree, and every page file of it (each list, each limit 1–100, each offset 0–total) asked of the Worker over that
// bucket (no Accept-Encoding: the identity body), its bytes and ETag compared with the file's. The R2 reads of each
// page, cold (the first time it is asked: no edge cache yet), come from X-R2-Read-Kinds: the most and the mean. With
// `--assets`, the same pages are also asked of the Worker over Static Assets serving the runs build.
// Not in npm test (283,000 pages at n = 1,000, minutes); the r2 step of `npm run bench` runs it at n ≤ 1,000, or
// alone: `npx tsx bench/steps/r2-pages.ts --n 1000`.
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BuildIndexText } from "../../scripts/api/runtime/build-index.ts";
import { PAGE_PREFIX, pageSuffix } from "../../scripts/api/runtime/page-envelope.ts";
import { fill, layout, MAX_LIMIT } from "../../scripts/api/runtime/route-table.ts";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../../scripts/cli/command.ts";
import { startLocalWorker } from "../../scripts/hosts/cloudflare/local/workerd.ts";
import { uploadToR2 } from "../../scripts/hosts/cloudflare/r2/upload.ts";
import { readKindsOf } from "../../scripts/hosts/cloudflare/worker/r2-builds.ts";
import { sortByName } from "../../scripts/model/order.ts";
import { askEveryPage, type PageTarget, pageTarget, pageTargets } from "../hosts/every-page.ts";
import { runBuild } from "../measure/run-build.ts";
import { positiveInt } from "../options.ts";
import { writeBenchCatalog } from "../workspace/catalog.ts";
import { OUT } from "../workspace/out.ts";

const contentDir = (n: number) => join(OUT, `pages-content-${n}`);
const runsDir = (n: number) => join(OUT, `pages-runs-${n}`);
const pagesDir = (n: number) => join(OUT, `pages-tree-${n}`);
const bucketDir = (n: number) => join(OUT, `pages-runs-${n}.r2`);
/** Requests in flight at once. */
const PARALLEL = 8;

export interface HostPages {
  /** pages asked, and those whose status, bytes or ETag differed from the page file */
  pages: number;
  mismatches: string[];
  /** R2 body reads (ranged reads) per cold page: the most, the mean, and how many pages read 0, 1, 2, 3 */
  reads?: { max: number; mean: number; histogram: number[] };
}

export interface R2PagesResult {
  n: number;
  inserts: number;
  /** every page of the page tree (n ≤ 1,000), or a seeded sample of this many pages checked against the runs */
  sample: number | null;
  r2: HostPages;
  /** the same sample asked again: the edge cache answers, no R2 read */
  hot?: HostPages;
  assets: HostPages | null;
  seconds: number;
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

/** A seeded sample of `count` pages: a list (each list alike), a limit 1–100 and an offset 0–total, each at random;
 *  with the page each must be, from the list's run and offsets files (L1), keyed by a path of its own. */
async function samplePages(
  runs: string,
  index: BuildIndexText,
  basePath: string,
  count: number,
): Promise<{ targets: PageTarget[]; expected: Map<string, Buffer> }> {
  const random = seeded(7);
  const filters = Object.keys(index.lists).sort();
  const template = layout(basePath).page;
  const targets: PageTarget[] = [];
  const expected = new Map<string, Buffer>();
  const runsOf = new Map<string, { run: Buffer; offsets: Uint32Array }>();
  while (targets.length < count) {
    const filter = filters[Math.floor(random() * filters.length)]!;
    const { category, lengths } = index.lists[filter]!;
    const limit = 1 + Math.floor(random() * MAX_LIMIT);
    const offset = Math.floor(random() * (lengths.length + 1));
    const file = fill(template, { filter, limit, offset });
    if (expected.has(file)) continue;
    let r = runsOf.get(filter);
    if (!r) {
      const offsets = await readFile(join(runs, `runs/${filter}.offsets`));
      r = {
        run: await readFile(join(runs, `runs/${filter}.run`)),
        offsets: new Uint32Array(new Uint8Array(offsets).buffer),
      };
      runsOf.set(filter, r);
    }
    const end = Math.min(offset + limit, lengths.length);
    expected.set(
      file,
      Buffer.concat([
        Buffer.from(PAGE_PREFIX),
        offset >= end ? Buffer.alloc(0) : r.run.subarray(r.offsets[offset]!, r.offsets[end]! - 1),
        Buffer.from(pageSuffix(lengths.length, limit, offset, JSON.stringify(category))),
      ]),
    );
    targets.push({ file, target: pageTarget(basePath, category, limit, offset) });
  }
  return { targets, expected };
}

/** Adds a copy of the middle tool (O1) of the catalog's largest category under a name that sorts right after it, so
 *  it lands mid-list in the unfiltered list and in that category's: the k-th such tool. */
async function insertInLargestCategory(content: string, k: number): Promise<string> {
  type Tool = { name: string; slug: string; categories: string[]; [key: string]: unknown };
  const dir = join(content, "tools");
  const tools = await Promise.all(
    (await readdir(dir)).map(async (f) => JSON.parse(await readFile(join(dir, f), "utf8")) as Tool),
  );
  const counts = new Map<string, number>();
  for (const t of tools) for (const c of t.categories) counts.set(c, (counts.get(c) ?? 0) + 1);
  const largest = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  const inCategory = sortByName(tools.filter((t) => t.categories.includes(largest) && !/-r2-insert-\d+$/.test(t.slug)));
  const middle = inCategory[Math.floor(inCategory.length / 2)]!;
  const slug = `${middle.slug}-r2-insert-${k}`;
  const name = `${middle.name} R2 Insert ${k}`;
  const tool = { ...middle, name, slug, websiteUrl: `https://${slug}.example`, logoUrl: null };
  await writeFile(
    join(dir, `${slug}.json`),
    `${JSON.stringify({ ...tool, shortDescription: `${name} is inserted.` }, null, 2)}\n`,
  );
  return `${slug} (in ${largest}, ${counts.get(largest)} tools)`;
}

/** Asks `origin` for every target over keep-alive connections (one request at a time on each: workerd), compares
 *  with the page files (or the expected bytes given) as every host's pages are (bench/hosts/every-page.ts); counts
 *  R2 reads when the answers say them. */
async function askAll(
  origin: string,
  targets: PageTarget[],
  tree: string,
  given?: Map<string, Buffer>,
): Promise<HostPages> {
  const histogram = [0, 0, 0, 0];
  let counted = 0;
  let sum = 0;
  let max = 0;
  const { pages, mismatches } = await askEveryPage(
    origin,
    targets,
    async ({ file }) => given?.get(file) ?? (await readFile(join(tree, file))),
    {
      lanes: PARALLEL,
      batch: 1,
      headers: { "accept-encoding": "identity" },
      onAnswer: ({ headers }) => {
        const kinds = headers["x-r2-read-kinds"];
        if (kinds === undefined) return;
        const reads = readKindsOf(kinds).body;
        counted++;
        sum += reads;
        max = Math.max(max, reads);
        histogram[Math.min(reads, 3)]!++;
      },
    },
  );
  return { pages, mismatches, ...(counted > 0 ? { reads: { max, mean: sum / counted, histogram } } : {}) };
}

export async function benchR2Pages(
  n: number,
  {
    inserts = 5,
    assets = false,
    sample = null,
    content,
  }: { inserts?: number; assets?: boolean; sample?: number | null; content?: string } = {},
  log: (line: string) => void = console.log,
): Promise<R2PagesResult> {
  const started = performance.now();
  // a build's --out is a link into its store of builds beside it
  for (const dir of [
    contentDir(n),
    runsDir(n),
    `${runsDir(n)}.builds`,
    pagesDir(n),
    `${pagesDir(n)}.builds`,
    bucketDir(n),
  ])
    await rm(dir, { recursive: true, force: true });
  if (content) await cp(content, contentDir(n), { recursive: true });
  else await writeBenchCatalog(n, contentDir(n));
  const uploader = async () =>
    startLocalWorker({ distDir: runsDir(n), mode: "r2", r2Persist: bucketDir(n), port: 0, uploader: true });
  const publish = async () => {
    await runBuild(contentDir(n), runsDir(n), ["--layout", "runs"]);
    const worker = await uploader();
    try {
      return await uploadToR2(runsDir(n), await worker.uploadTarget());
    } finally {
      await worker.close();
    }
  };
  log(`r2 pages n=${n}: the runs build, uploaded…`);
  await publish();
  for (let k = 1; k <= inserts; k++) {
    const inserted = await insertInLargestCategory(contentDir(n), k);
    const up = await publish();
    log(`r2 pages n=${n}: ${inserted}: uploaded, ${up.writes} writes, ${(up.sentBytes / 1e3).toFixed(1)} kB`);
  }
  let targets: PageTarget[];
  let given: Map<string, Buffer> | undefined;
  const index = JSON.parse(await readFile(join(runsDir(n), "build-index.json"), "utf8")) as BuildIndexText;
  const table = JSON.parse(await readFile(join(runsDir(n), "routes.json"), "utf8")) as { basePath: string };
  if (sample === null) {
    log(`r2 pages n=${n}: the page tree of the same catalog…`);
    await runBuild(contentDir(n), pagesDir(n), []);
    targets = pageTargets(index.lists, table.basePath);
  } else ({ targets, expected: given } = await samplePages(runsDir(n), index, table.basePath, sample));
  log(`r2 pages n=${n}: asking the Worker over R2 for ${targets.length.toLocaleString("en-US")} pages…`);
  const worker = await startLocalWorker({
    distDir: runsDir(n),
    mode: "r2",
    r2Persist: bucketDir(n),
    port: 0,
    countReads: true,
  });
  let r2: HostPages;
  let hot: HostPages;
  try {
    r2 = await askAll(worker.url, targets, pagesDir(n), given);
    hot = await askAll(worker.url, targets, pagesDir(n), given);
  } finally {
    await worker.close();
  }
  let overAssets: HostPages | null = null;
  if (assets) {
    log(`r2 pages n=${n}: and the Worker over Static Assets of the runs build…`);
    const served = await startLocalWorker({ distDir: runsDir(n), mode: "assets", port: 0 });
    try {
      overAssets = await askAll(served.url, targets, pagesDir(n), given);
    } finally {
      await served.close();
    }
  }
  return { n, inserts, sample, r2, hot, assets: overAssets, seconds: (performance.now() - started) / 1000 };
}

/** The bench report's section. */
export function r2PagesReport(r: R2PagesResult): string {
  const host = (what: string, h: HostPages) =>
    `  ${what}: ${h.pages.toLocaleString("en-US")} pages, ${h.mismatches.length} differ` +
    (h.mismatches.length ? `: ${h.mismatches.slice(0, 5).join("; ")}` : "") +
    (h.reads
      ? `; R2 ranged reads per cold page: at most ${h.reads.max}, ${h.reads.mean.toFixed(3)} on average ` +
        `(${h.reads.histogram.map((c, i) => `${c.toLocaleString("en-US")} read ${i}`).join(", ")})`
      : "");
  const what = r.sample === null ? "Every page" : `A seeded sample of ${r.sample.toLocaleString("en-US")} pages`;
  const against = r.sample === null ? "the page tree" : "the runs (L1)";
  return [
    `${what} from the pieces (n = ${r.n.toLocaleString("en-US")}, after ${r.inserts} inserted tools, each uploaded), against ${against}, in ${r.seconds.toFixed(0)} s`,
    host("the Worker over R2, cold", r.r2),
    ...(r.hot ? [host("the same again, hot", r.hot)] : []),
    ...(r.assets ? [host("the Worker over Static Assets (runs build)", r.assets)] : []),
  ].join("\n");
}

const options = {
  n: { type: "string", default: "1000", valueName: "TOOLS", description: "catalog size" },
  inserts: { type: "string", default: "5", valueName: "K", description: "tools inserted (and uploaded) first" },
  assets: { type: "boolean", default: false, description: "also ask the Worker over Static Assets" },
  sample: {
    type: "string",
    valueName: "K",
    description: "ask a seeded sample of K pages, checked against the runs, instead of building the page tree",
  },
  content: {
    type: "string",
    valueName: "DIR",
    description: "a catalog to copy instead of the benchmark's generated one",
  },
  json: { type: "boolean", default: false, description: "print the result as one JSON object" },
} as const;

const SPEC: CommandSpec<typeof options> = {
  usage: "npx tsx bench/steps/r2-pages.ts --",
  summary:
    "Uploads the runs build of an n-tool catalog to the local R2 (then K inserted tools), and asks the Worker for every " +
    "page of the same catalog's page tree: each byte for byte and ETag for ETag, with the R2 reads of each cold page.",
  options,
};

async function main(): Promise<void> {
  const values = parseCommandArgs(SPEC);
  const n = positiveInt("n", values.n);
  const inserts = Number(values.inserts);
  if (!Number.isInteger(inserts) || inserts < 0) throw new UserError(`--inserts ${values.inserts}: a count`, 2);
  const sample = values.sample === undefined ? null : positiveInt("sample", values.sample);
  const result = await benchR2Pages(
    n,
    { inserts, assets: values.assets, sample, ...(values.content ? { content: values.content } : {}) },
    values.json ? () => {} : console.log,
  );
  console.log(values.json ? JSON.stringify(result) : r2PagesReport(result));
  if (result.r2.mismatches.length > 0 || (result.assets?.mismatches.length ?? 0) > 0) process.exitCode = 1;
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => process.argv.includes("--json") });
