// The only code that writes the output. Every build writes a new generation in a working folder of the store
// and publishes it in one step (store.ts); the published tree is never written into (B2, B3).
// Full build: a fresh folder. Incremental build (a previous generation from the same code and options): the
// generation published before the current one is recycled as the working copy (else the current one is cloned by
// hard links), and only what changed is written, each file as a new inode. Lists whose length changed are
// written whole into an empty folder: creating files is cheaper than replacing them one by one.

import { mkdir, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { fill } from "../api/runtime/route-table.ts";
import { sha256Hex } from "../api/sha256-node.ts";
import { cachedCommandBundle } from "../cli/bundle-cache.mjs";
import type { OutputFile } from "../render/output.ts";
import { hashPages, type PageDigests, type PageList } from "../render/software-pages.ts";
import { siblingPaths, siblingsOf } from "./encodings.ts";
import { acquireLock } from "./lock.ts";
import { MANIFEST_FILE, type Manifest, manifestLists, type OffsetPlan, planList, readManifest } from "./manifest.ts";
import { type PageJob, type PageStats, type PageUnit, withPath, writePageUnits } from "./page-units.ts";
import {
  cloneByLinks,
  inspectOutput,
  listGenerations,
  listLeftovers,
  nextGeneration,
  openStore,
  publish,
  type Store,
  Trash,
  workingName,
} from "./store.ts";
import { type SyncLayout, syncRootFile, syncShardFiles } from "./sync-files.ts";

export interface SiteOutput {
  /** every file but the list pages */
  files: OutputFile[];
  lists: PageList[];
  /** where a page goes: `…/{filter}/{limit}/{offset}.json` */
  pageTemplate: string;
  /** the folder of response bodies (`v1/`): only these get precompressed siblings, never host configs */
  bodyDir: string;
  maxLimit: number;
  /** where the hash tree over the bodies goes (E2) */
  sync: SyncLayout;
  /**
   * Validates list `list`'s page envelopes and the items at `items` (throws when one breaks its schema). Called for
   * each list whose pages are written: an item equal to one the previous build of the same code wrote was checked then.
   */
  checkList?: (list: number, items: "all" | number[]) => void;
}

export interface WriteOptions {
  /** changes of code or options that change output: a different fingerprint forces a full build */
  fingerprint: string;
  compress: boolean;
  /** ignore any manifest and build the whole tree */
  full?: boolean;
  /** the content folder, never to be built over (default: none) */
  contentDir?: string;
  /** wait for another build of the same output (default), or refuse at once */
  wait?: boolean;
  /** one line each: waiting for another build */
  onNotice?: (line: string) => void;
  onProgress?: (written: number) => void;
  /** delete replaced folders in a process that may outlive the build (the CLI), instead of waiting for it */
  backgroundCleanup?: boolean;
}

export interface WriteSummary {
  mode: "full" | "incremental";
  /** how the working copy was made: written from nothing, a recycled older generation, or a hard-link clone */
  base: "fresh" | "recycled" | "cloned";
  /** the generation folder now published */
  generation: string;
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

interface Base {
  kind: WriteSummary["base"];
  manifest?: Manifest;
}

export async function writeOutput(outDir: string, site: SiteOutput, options: WriteOptions): Promise<WriteSummary> {
  const contentDir = options.contentDir ?? `${outDir}.no-content`;
  // Checked before the lock (a refused output gets no store) and again under it, where nothing changes it.
  const unlocked = await inspectOutput(outDir, contentDir);
  await openStore(unlocked);
  const release = await acquireLock(unlocked.dir, {
    wait: options.wait ?? true,
    onWait: options.onNotice,
    outName: outDir,
  });
  const trash = new Trash(unlocked, options.backgroundCleanup ?? false);
  const work = join(unlocked.dir, workingName());
  try {
    const store = await inspectOutput(outDir, contentDir);
    // Under the lock, every working folder, trash folder or link in the store is a dead build's.
    for (const name of await listLeftovers(store)) await trash.discard(join(store.dir, name));
    let summary: Omit<WriteSummary, "generation">;
    let generation: string;
    try {
      const base = await prepareWorkingCopy(store, work, options, trash);
      summary = base.manifest
        ? await writeIncremental(work, site, options, base.manifest, base.kind, trash)
        : await writeFull(work, site, options);
      generation = await nextGeneration(store);
      await rename(work, join(store.dir, generation));
    } catch (e) {
      // Nothing was published: the working copy goes, the published tree was never touched.
      await rm(work, { recursive: true, force: true });
      throw e;
    }
    await publish(store, generation);
    return { ...summary, generation };
  } finally {
    await trash.empty();
    await release();
  }
}

/**
 * Chooses the base and makes the working folder: the newest unpublished generation built by the same code is
 * recycled; else the published one is cloned by hard links; else (none, another fingerprint, --full) nothing.
 * Generations neither published nor recycled are thrown away: readers have had a whole build to finish on them.
 */
async function prepareWorkingCopy(store: Store, work: string, options: WriteOptions, trash: Trash): Promise<Base> {
  const generations = await listGenerations(store);
  const published =
    store.published && generations.includes(store.published)
      ? await readManifest(join(store.dir, store.published))
      : undefined;
  const usable = (m: Manifest | undefined): m is Manifest =>
    !options.full && m !== undefined && m.fingerprint === options.fingerprint;
  let base: Base = { kind: "fresh" };
  for (const name of generations) {
    if (name === store.published) continue;
    const path = join(store.dir, name);
    const manifest = base.kind === "fresh" && usable(published) ? await readManifest(path) : undefined;
    if (usable(manifest)) {
      await rename(path, work);
      // Without a manifest a working copy is never a base: a build killed half-way is not trusted.
      await unlink(join(work, MANIFEST_FILE));
      base = { kind: "recycled", manifest };
    } else await trash.discard(path);
  }
  if (base.kind === "recycled") return base;
  if (usable(published)) {
    await cloneByLinks(join(store.dir, store.published!), work);
    await unlink(join(work, MANIFEST_FILE));
    return { kind: "cloned", manifest: published };
  }
  await mkdir(work);
  return base;
}

async function writeFull(
  work: string,
  site: SiteOutput,
  options: WriteOptions,
): Promise<Omit<WriteSummary, "generation">> {
  for (const list of site.lists.keys()) site.checkList?.(list, "all");
  const units: PageUnit[] = site.lists.flatMap((_, list) =>
    Array.from({ length: site.maxLimit }, (_, i) => ({ list, limit: i + 1, offsets: "all" as const, replace: false })),
  );
  const everyPage = site.lists.map(() => Array.from({ length: site.maxLimit }, () => "all" as const));
  // Small files, the pages' hashes and the hash tree from the main thread while workers write pages.
  const [small, pages] = await both(
    writeSmallFiles(work, site.files, undefined, options.compress && site.bodyDir).then(async (bodies) =>
      writeSyncTree(work, site, options, bodies, await hashPagePlans(site, everyPage), undefined),
    ),
    writePages(
      { root: work, pageTemplate: site.pageTemplate, lists: site.lists, units, compress: options.compress },
      options.onProgress,
    ),
  );
  const lists = manifestLists(site.lists);
  for (const [i, l] of site.lists.entries()) Object.assign(lists[l.filter]!, pages.perList[i]);
  const tree = { files: small.written + pages.written, bytes: small.writtenBytes + pages.writtenBytes };
  await writeManifest(work, options, small, lists, tree);
  return { mode: "full", base: "fresh", ...tree, written: tree.files, writtenBytes: tree.bytes, deleted: 0 };
}

async function writeIncremental(
  work: string,
  site: SiteOutput,
  options: WriteOptions,
  previous: Manifest,
  base: Base["kind"],
  trash: Trash,
): Promise<Omit<WriteSummary, "generation">> {
  const listDir = (filter: string) =>
    dirname(dirname(join(work, fill(site.pageTemplate, { filter, limit: 1, offset: 0 }))));
  const nextLists = manifestLists(site.lists);
  const units: PageUnit[] = [];
  const fresh = new Set<string>();
  const plans: (OffsetPlan[] | undefined)[] = [];
  for (const [index, list] of site.lists.entries()) {
    const plan = planList(index, list, nextLists[list.filter]!.items, previous.lists[list.filter], site.maxLimit);
    plans.push(plan?.offsets);
    if (!plan) continue;
    site.checkList?.(index, plan.changed);
    if (plan.fresh) {
      fresh.add(list.filter);
      // Out of the way at once, deleted by another process meanwhile.
      if (previous.lists[list.filter]) await trash.discard(listDir(list.filter));
    }
    plan.offsets.forEach((offsets, i) => {
      if (offsets === "all" || offsets.length > 0)
        units.push({ list: index, limit: i + 1, offsets, replace: !plan.fresh });
    });
  }
  // Lists that no longer exist (a category was removed): their whole folder goes.
  for (const filter of Object.keys(previous.lists)) if (!nextLists[filter]) await trash.discard(listDir(filter));

  const inSync = syncFolder(site);
  // The hash tree needs the pages' hashes, not their files: it is written while the workers still write pages.
  const [small, pages] = await both(
    writeSmallFiles(
      work,
      site.files,
      manifestPart(previous, (path) => !path.startsWith(inSync)),
      options.compress && site.bodyDir,
    ).then(async (bodies) => writeSyncTree(work, site, options, bodies, await hashPagePlans(site, plans), previous)),
    writePages(
      { root: work, pageTemplate: site.pageTemplate, lists: site.lists, units, compress: options.compress },
      options.onProgress,
    ),
  );

  // Each list's files and bytes: fresh ones are what was written, the others what they were plus the change.
  let listFilesDelta = 0;
  let listBytesDelta = 0;
  let removedFiles = 0;
  for (const [index, list] of site.lists.entries()) {
    const old = previous.lists[list.filter];
    const change = pages.perList[index] ?? { files: 0, bytes: 0 };
    const next = nextLists[list.filter]!;
    next.files = (fresh.has(list.filter) || !old ? 0 : old.files) + change.files;
    next.bytes = (fresh.has(list.filter) || !old ? 0 : old.bytes) + change.bytes;
    listFilesDelta += next.files - (old?.files ?? 0);
    listBytesDelta += next.bytes - (old?.bytes ?? 0);
    if (old && fresh.has(list.filter)) removedFiles += Math.max(0, old.files - next.files);
  }
  for (const [filter, old] of Object.entries(previous.lists)) {
    if (nextLists[filter]) continue;
    listFilesDelta -= old.files;
    listBytesDelta -= old.bytes;
    removedFiles += old.files;
  }
  const tree = {
    files: previous.tree.files + small.created - small.deleted + listFilesDelta,
    bytes: previous.tree.bytes + small.writtenBytes - small.removedBytes + listBytesDelta,
  };
  await writeManifest(work, options, small, nextLists, tree);
  return {
    mode: "incremental",
    base,
    ...tree,
    written: small.written + pages.written,
    writtenBytes: small.writtenBytes + pages.writtenBytes,
    deleted: small.deleted + pages.deleted + removedFiles,
  };
}

interface SmallStats {
  written: number;
  created: number;
  writtenBytes: number;
  removedBytes: number;
  deleted: number;
  hashes: Record<string, string>;
  sizes: Record<string, number>;
  keys: Record<string, string>;
  /** the request target of each body served by URL */
  targets: Record<string, string>;
}

/**
 * Writes the files whose hash differs from `previous` (all, when there is none) and removes those gone. Over a
 * working copy an existing file is replaced by a new one renamed over it: its inode may be the published tree's.
 */
async function writeSmallFiles(
  root: string,
  files: OutputFile[],
  manifest: Manifest | undefined,
  compressUnder: string | false,
): Promise<SmallStats> {
  const stats: SmallStats = {
    written: 0,
    created: 0,
    writtenBytes: 0,
    removedBytes: 0,
    deleted: 0,
    hashes: {},
    sizes: {},
    keys: {},
    targets: {},
  };
  const previous = manifest?.files;
  const inPlace = previous !== undefined;
  const madeDirs = new Set<string>();
  const put = async (path: string, body: Uint8Array) => {
    const target = join(root, path);
    const dir = dirname(target);
    if (!madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      madeDirs.add(dir);
    }
    const old = inPlace ? await sizeOf(target) : -1;
    if (old >= 0) stats.removedBytes += old;
    else stats.created++;
    const tmp = old >= 0 ? `${target}.tmp-${process.pid}` : target;
    await writeFile(tmp, body, { flag: "wx" }).catch((e: unknown) => Promise.reject(withPath(e, tmp)));
    if (tmp !== target) await rename(tmp, target);
    stats.written++;
    stats.writtenBytes += body.byteLength;
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
    if (file.target !== undefined) stats.targets[file.path] = file.target;
    if (file.key !== undefined) {
      stats.keys[file.path] = file.key;
      // Made from the same inputs as the file there: kept without rendering it.
      const kept = manifest?.keys?.[file.path] === file.key ? previous?.[file.path] : undefined;
      if (kept !== undefined) {
        stats.hashes[file.path] = kept;
        stats.sizes[file.path] = manifest!.sizes[file.path]!;
        continue;
      }
    }
    // Read once (a shard renders on each read) and encoded once: hashed, measured and written as the same bytes.
    const read = file.body;
    const body = typeof read === "string" ? Buffer.from(read) : read;
    const hash = sha256Hex(body);
    stats.hashes[file.path] = hash;
    stats.sizes[file.path] = body.byteLength;
    if (previous?.[file.path] === hash) continue;
    file.check?.();
    await put(file.path, body);
    if (compressUnder === false || !file.path.startsWith(compressUnder)) continue;
    const siblings = siblingsOf(file.path, Buffer.from(body));
    for (const s of siblings.write) await put(s.path, s.body);
    if (inPlace) for (const path of siblings.remove) await remove(path);
  }
  for (const path of Object.keys(previous ?? {})) {
    if (path in stats.hashes) continue;
    for (const p of [path, ...siblingPaths(path)]) await remove(p);
  }
  return stats;
}

/** The folder of the hash tree's files (`v1/sync/`). */
const syncFolder = (site: SiteOutput) => site.sync.rootFile.slice(0, site.sync.rootFile.lastIndexOf("/") + 1);

/** The manifest's record of only the files `keep` accepts (a writer pass removes what its part lists and it does not write). */
function manifestPart(manifest: Manifest | undefined, keep: (path: string) => boolean): Manifest | undefined {
  if (!manifest) return undefined;
  const part = <T>(record: Record<string, T> | undefined) =>
    Object.fromEntries(Object.entries(record ?? {}).filter(([path]) => keep(path)));
  return { ...manifest, files: part(manifest.files), sizes: part(manifest.sizes), keys: part(manifest.keys) };
}

/**
 * The hash tree (E2), once the small files are written and every page hashed (pages need not be written yet): its
 * shards, then its root from their hashes. Returns the small files' stats with both passes added, as the manifest records them.
 */
async function writeSyncTree(
  work: string,
  site: SiteOutput,
  options: WriteOptions,
  bodies: SmallStats,
  pages: (PageDigests | undefined)[],
  previous: Manifest | undefined,
): Promise<SmallStats> {
  const inSync = syncFolder(site);
  const compress = options.compress && site.bodyDir;
  const shards = syncShardFiles({
    layout: site.sync,
    root: work,
    lists: site.lists,
    maxLimit: site.maxLimit,
    pages,
    small: bodies,
  });
  const shardStats = await writeSmallFiles(
    work,
    shards.map((s) => s.file),
    manifestPart(previous, (path) => path.startsWith(inSync) && path !== site.sync.rootFile),
    compress,
  );
  const rootStats = await writeSmallFiles(
    work,
    [syncRootFile(site.sync, shards, shardStats)],
    manifestPart(previous, (path) => path === site.sync.rootFile),
    compress,
  );
  return [shardStats, rootStats].reduce(
    (sum, s) => ({
      written: sum.written + s.written,
      created: sum.created + s.created,
      writtenBytes: sum.writtenBytes + s.writtenBytes,
      removedBytes: sum.removedBytes + s.removedBytes,
      deleted: sum.deleted + s.deleted,
      hashes: { ...sum.hashes, ...s.hashes },
      sizes: { ...sum.sizes, ...s.sizes },
      keys: { ...sum.keys, ...s.keys },
      targets: { ...sum.targets, ...s.targets },
    }),
    bodies,
  );
}

/** Pages in worker threads (so the main thread writes the small files meanwhile), or inline when there are few. */
async function writePages(job: PageJob, onProgress?: (written: number) => void): Promise<PageStats> {
  const pageCount = job.units.reduce(
    (n, u) => n + (u.offsets === "all" ? job.lists[u.list]!.items.length + 1 : u.offsets.length),
    0,
  );
  // Plain writes are bound by the kernel's file creation: a second writer doubled sys time and gained no wall time
  // (n = 1,000: 32.8 s with one worker, 33.0 s with two). Compression is CPU work, and there every core pays.
  const inline = pageCount <= INLINE_PAGES;
  const workers = Math.min(job.compress ? availableParallelism() : 1, Math.ceil(pageCount / INLINE_PAGES));
  let stats: PageStats[];
  if (inline) stats = [writePageUnits(job, onProgress)];
  else {
    const entry = await pageWorkerEntry();
    // Round-robin over (list, limit) units balances bytes when there are several workers.
    const shares = Array.from({ length: workers }, (_, w) => job.units.filter((_, i) => i % workers === w));
    const progress = new Array<number>(workers).fill(0);
    stats = await Promise.all(
      shares.map(
        (units, w) =>
          new Promise<PageStats>((resolve, reject) => {
            // Page pieces are short-lived garbage: a small young generation keeps each worker's memory flat.
            const worker = new Worker(entry, {
              workerData: { ...job, units },
              resourceLimits: { maxYoungGenerationSizeMb: 8 },
            });
            worker.on(
              "message",
              (m: {
                progress?: number;
                done?: PageStats;
                failed?: { message: string; code?: string; path?: string };
              }) => {
                if (m.progress !== undefined) {
                  progress[w] = m.progress;
                  onProgress?.(progress.reduce((a, b) => a + b, 0));
                }
                if (m.done) resolve(m.done);
                // A file system error keeps its code and path across the thread boundary (ENOSPC names the file).
                if (m.failed)
                  reject(Object.assign(new Error(m.failed.message), { code: m.failed.code, path: m.failed.path }));
              },
            );
            worker.on("error", reject);
            worker.on("exit", (code) => code !== 0 && reject(new Error(`page writer exited with code ${code}`)));
          }),
      ),
    );
  }
  const perList: PageStats["perList"] = {};
  for (const s of stats)
    for (const [list, d] of Object.entries(s.perList)) {
      const sum = (perList[Number(list)] ??= { files: 0, bytes: 0 });
      sum.files += d.files;
      sum.bytes += d.bytes;
    }
  return stats.reduce((a, s) => ({
    written: a.written + s.written,
    created: a.created + s.created,
    writtenBytes: a.writtenBytes + s.writtenBytes,
    removedBytes: a.removedBytes + s.removedBytes,
    deleted: a.deleted + s.deleted,
    perList,
  }));
}

/**
 * The hashes of the pages each list writes (`plans[list]`, none when undefined), list by list so the page writers'
 * messages get through between them.
 */
async function hashPagePlans(site: SiteOutput, plans: (OffsetPlan[] | undefined)[]) {
  const digests: (PageDigests | undefined)[] = [];
  for (const [i, list] of site.lists.entries()) {
    const plan = plans[i];
    digests.push(plan && hashPages(list, plan, site.maxLimit));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return digests;
}

async function writeManifest(
  root: string,
  options: WriteOptions,
  { hashes, keys, sizes }: SmallStats,
  lists: Manifest["lists"],
  tree: Manifest["tree"],
) {
  const manifest: Manifest = { format: 3, fingerprint: options.fingerprint, files: hashes, sizes, keys, lists, tree };
  const path = join(root, MANIFEST_FILE);
  await writeFile(path, JSON.stringify(manifest)).catch((e: unknown) => Promise.reject(withPath(e, path)));
}

/**
 * What a page writer thread runs: the cached bundle of page-worker.ts, as the server's cluster workers do (a thread
 * that loads tsx's hooks instead costs a build ~30 MiB more peak memory); through tsx when no bundle can be made.
 */
async function pageWorkerEntry(): Promise<URL | string> {
  return cachedCommandBundle("scripts/io/page-worker.ts").catch(() => new URL("./page-worker.mjs", import.meta.url));
}

/** Both results, or the first error once both have stopped: the working folder is removed only when nobody writes in it. */
async function both<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === "rejected") throw ra.reason;
  if (rb.status === "rejected") throw rb.reason;
  return [ra.value, rb.value];
}

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => -1,
  );
