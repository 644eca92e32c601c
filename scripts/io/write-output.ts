// The only code that writes dist/.
// Full build: everything goes to a temporary folder beside dist/, which then replaces it in one rename, so a
// failure leaves the previous dist/ as it was. Incremental build (dist/ has a manifest from the same code and
// options): only the files whose bytes change are rewritten, each replaced by a rename, and files that are no
// longer built are removed. Content errors stop a build before this code runs, in both modes.
import fg from "fast-glob";
import { availableParallelism } from "node:os";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import type { OutputFile } from "../render/output.ts";
import { fill } from "../render/route-table.ts";
import type { PageList } from "../render/software-pages.ts";
import { siblingPaths, siblingsOf } from "./encodings.ts";
import { hashOf, MANIFEST_FILE, manifestLists, planList, readManifest, type Manifest } from "./manifest.ts";
import { writePageUnits, type PageJob, type PageStats, type PageUnit } from "./page-units.ts";

export interface SiteOutput {
  /** every file but the list pages */
  files: OutputFile[];
  lists: PageList[];
  /** where a page goes: `…/{filter}/{limit}/{offset}.json` */
  pageTemplate: string;
  /** the folder of response bodies (`v1/`): only these get precompressed siblings, never host configs */
  bodyDir: string;
  maxLimit: number;
}

export interface WriteOptions {
  /** changes of code or options that change output: a different fingerprint forces a full build */
  fingerprint: string;
  compress: boolean;
  /** ignore any manifest and build the whole tree */
  full?: boolean;
  onProgress?: (written: number) => void;
}

export interface WriteSummary {
  mode: "full" | "incremental";
  /** the whole tree after this build */
  files: number;
  bytes: number;
  /** what this build wrote and removed */
  written: number;
  writtenBytes: number;
  deleted: number;
}

/** Below this many pages a worker's start-up costs more than it saves. */
const INLINE_PAGES = 20_000;

export async function writeOutput(outDir: string, site: SiteOutput, options: WriteOptions): Promise<WriteSummary> {
  const previous = options.full ? undefined : await readManifest(outDir);
  if (previous && previous.fingerprint === options.fingerprint) return writeIncremental(outDir, site, options, previous);
  return writeFull(outDir, site, options);
}

async function writeFull(outDir: string, site: SiteOutput, options: WriteOptions): Promise<WriteSummary> {
  const tmp = `${outDir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    const units: PageUnit[] = site.lists.flatMap((_, list) =>
      Array.from({ length: site.maxLimit }, (_, i) => ({ list, limit: i + 1, offsets: "all" as const })),
    );
    // Small files from the main thread while workers write pages.
    const [small, pages] = await Promise.all([
      writeSmallFiles(tmp, site.files, undefined, options.compress && site.bodyDir),
      writePages({ root: tmp, pageTemplate: site.pageTemplate, lists: site.lists, units, compress: options.compress, inPlace: false }, options.onProgress),
    ]);
    const tree = { files: small.written + pages.written, bytes: small.writtenBytes + pages.writtenBytes };
    await writeManifest(tmp, options, small.hashes, manifestLists(site.lists), tree);
    await swap(tmp, outDir);
    return { mode: "full", ...tree, written: tree.files, writtenBytes: tree.bytes, deleted: 0 };
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

async function writeIncremental(outDir: string, site: SiteOutput, options: WriteOptions, previous: Manifest): Promise<WriteSummary> {
  // Without a manifest the next build is a full one: a build that dies half-way can never be trusted as a base.
  await rm(join(outDir, MANIFEST_FILE), { force: true });
  const small = await writeSmallFiles(outDir, site.files, previous.files, options.compress && site.bodyDir);

  const units: PageUnit[] = [];
  const nextLists = manifestLists(site.lists);
  site.lists.forEach((list, index) => {
    const plan = planList(index, list, nextLists[list.filter]!.items, previous.lists[list.filter], site.maxLimit);
    plan?.offsets.forEach((offsets, i) => {
      if (offsets === "all" || offsets.length > 0 || plan.delete) units.push({ list: index, limit: i + 1, offsets, ...(plan.delete ? { delete: plan.delete } : {}) });
    });
  });
  const pages = await writePages({ root: outDir, pageTemplate: site.pageTemplate, lists: site.lists, units, compress: options.compress, inPlace: true }, options.onProgress);

  // Lists that no longer exist (a category was removed): their whole folder goes.
  let removedListBytes = 0;
  let removedListFiles = 0;
  for (const filter of Object.keys(previous.lists)) {
    if (nextLists[filter]) continue;
    const dir = dirname(dirname(join(outDir, fill(site.pageTemplate, { filter, limit: 1, offset: 0 }))));
    const old = previous.lists[filter]!;
    removedListFiles += site.maxLimit * (old.items.length + 1);
    removedListBytes += await treeBytes(dir);
    await rm(dir, { recursive: true, force: true });
  }

  const tree = {
    files: previous.tree.files + small.created + pages.created - small.deleted - pages.deleted - removedListFiles,
    bytes: previous.tree.bytes + small.writtenBytes - small.removedBytes + pages.writtenBytes - pages.removedBytes - removedListBytes,
  };
  await writeManifest(outDir, options, small.hashes, nextLists, tree);
  return {
    mode: "incremental",
    ...tree,
    written: small.written + pages.written,
    writtenBytes: small.writtenBytes + pages.writtenBytes,
    deleted: small.deleted + pages.deleted + removedListFiles,
  };
}

interface SmallStats {
  written: number;
  created: number;
  writtenBytes: number;
  removedBytes: number;
  deleted: number;
  hashes: Record<string, string>;
}

/** Writes the files whose hash differs from `previous` (all, when there is none) and removes those gone. */
async function writeSmallFiles(root: string, files: OutputFile[], previous: Record<string, string> | undefined, compressUnder: string | false): Promise<SmallStats> {
  const stats: SmallStats = { written: 0, created: 0, writtenBytes: 0, removedBytes: 0, deleted: 0, hashes: {} };
  const inPlace = previous !== undefined;
  const madeDirs = new Set<string>();
  const put = async (path: string, body: string | Uint8Array) => {
    const target = join(root, path);
    const dir = dirname(target);
    if (!madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      madeDirs.add(dir);
    }
    const old = inPlace ? await sizeOf(target) : -1;
    if (old >= 0) stats.removedBytes += old;
    else stats.created++;
    const tmp = inPlace ? `${target}.tmp-${process.pid}` : target;
    await writeFile(tmp, body);
    if (inPlace) await rename(tmp, target);
    stats.written++;
    stats.writtenBytes += typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  };
  const remove = async (path: string) => {
    const old = await sizeOf(join(root, path));
    if (old < 0) return;
    stats.removedBytes += old;
    stats.deleted++;
    await rm(join(root, path));
  };

  for (const file of files) {
    if (file.path in stats.hashes) throw new Error(`two outputs write ${file.path}`);
    const hash = hashOf(file.body);
    stats.hashes[file.path] = hash;
    if (previous?.[file.path] === hash) continue;
    await put(file.path, file.body);
    if (compressUnder === false || !file.path.startsWith(compressUnder)) continue;
    const siblings = siblingsOf(file.path, Buffer.from(file.body));
    for (const s of siblings.write) await put(s.path, s.body);
    if (inPlace) for (const path of siblings.remove) await remove(path);
  }
  for (const path of Object.keys(previous ?? {})) {
    if (path in stats.hashes) continue;
    for (const p of [path, ...siblingPaths(path)]) await remove(p);
  }
  return stats;
}

/** Pages in worker threads (so the main thread writes the small files meanwhile), or inline when there are few. */
async function writePages(job: PageJob, onProgress?: (written: number) => void): Promise<PageStats> {
  const pageCount = job.units.reduce((n, u) => n + (u.offsets === "all" ? job.lists[u.list]!.items.length + 1 : u.offsets.length), 0);
  // Plain writes are bound by the kernel's file creation: a second writer doubled sys time and gained no wall time
  // (n = 1,000: 32.8 s with one worker, 33.0 s with two). Compression is CPU work, and there every core pays.
  const inline = pageCount <= INLINE_PAGES;
  const workers = Math.min(job.compress ? availableParallelism() : 1, Math.ceil(pageCount / INLINE_PAGES));
  let stats: PageStats[];
  if (inline) stats = [writePageUnits(job, onProgress)];
  else {
    // Round-robin over (list, limit) units balances bytes when there are several workers.
    const shares = Array.from({ length: workers }, (_, w) => job.units.filter((_, i) => i % workers === w));
    const progress = new Array<number>(workers).fill(0);
    stats = await Promise.all(
      shares.map(
        (units, w) =>
          new Promise<PageStats>((resolve, reject) => {
            // Page pieces are short-lived garbage: a small young generation keeps each worker's memory flat.
            const worker = new Worker(new URL("./page-worker.mjs", import.meta.url), { workerData: { ...job, units }, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
            worker.on("message", (m: { progress?: number; done?: PageStats }) => {
              if (m.progress !== undefined) {
                progress[w] = m.progress;
                onProgress?.(progress.reduce((a, b) => a + b, 0));
              }
              if (m.done) resolve(m.done);
            });
            worker.on("error", reject);
            worker.on("exit", (code) => code !== 0 && reject(new Error(`page writer exited with code ${code}`)));
          }),
      ),
    );
  }
  return stats.reduce((a, s) => ({
    written: a.written + s.written,
    created: a.created + s.created,
    writtenBytes: a.writtenBytes + s.writtenBytes,
    removedBytes: a.removedBytes + s.removedBytes,
    deleted: a.deleted + s.deleted,
  }));
}

async function writeManifest(root: string, options: WriteOptions, files: Record<string, string>, lists: Manifest["lists"], tree: Manifest["tree"]) {
  const manifest: Manifest = { format: 1, fingerprint: options.fingerprint, files, lists, tree };
  await writeFile(join(root, MANIFEST_FILE), JSON.stringify(manifest));
}

async function swap(tmp: string, outDir: string) {
  const old = `${outDir}.old-${process.pid}`;
  const hadOld = await rename(outDir, old).then(
    () => true,
    (e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return false;
      throw e;
    },
  );
  await rename(tmp, outDir);
  if (hadOld) await rm(old, { recursive: true, force: true });
}

const sizeOf = (path: string) => stat(path).then((s) => s.size, () => -1);

async function treeBytes(dir: string): Promise<number> {
  const files = await fg("**/*", { cwd: dir, onlyFiles: true, stats: true });
  return files.reduce((n, f) => n + (f.stats?.size ?? 0), 0);
}
