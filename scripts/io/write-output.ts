// The only code that writes the output: a build's two passes over the working copy of its generation
// (generation.ts makes it and publishes it; B2, B3). Full build: every file, into a fresh folder. Incremental build
// (a previous generation from the same code and options): only what changed, each file as a new inode. Lists whose
// length changed are written whole into an empty folder: creating files is cheaper than replacing them one by one.
// The small files and the hash tree are written on the main thread while the page writers write the list pages.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BuildLayout } from "../api/runtime/build-index.ts";
import { fill } from "../api/runtime/route-table.ts";
import type { BodyPart } from "../render/catalog-body.ts";
import { type HashTreeLayout, hashTreeRootFile, hashTreeShardFiles } from "../render/hash-tree-files.ts";
import { runFile } from "../render/list-runs.ts";
import type { OutputFile, OutputGroup } from "../render/output.ts";
import type { Piece, RecallPieces } from "../render/pieces.ts";
import type { PageList } from "../render/software-pages.ts";
import { writeBuildIndex } from "./build-index.ts";
import { type Base, type GenerationOptions, writeGeneration } from "./generation.ts";
import { countChangedLists, countWrittenLists } from "./list-accounting.ts";
import { type Manifest, manifestLists, type OffsetPlan, planList, writeManifest } from "./manifest.ts";
import type { PageStats, PageUnit } from "./page-units.ts";
import { type PageWriters, writePages } from "./page-writers.ts";
import { addSmallStats, manifestPart, type SmallStats, writeSmallFiles } from "./small-files.ts";
import type { Trash } from "./store.ts";
import { rememberChanges, reportTree, type TreeChanges, type TreeCounts } from "./tree-report.ts";

export interface SiteOutput {
  /** every file but the list pages and the groups' */
  files: OutputFile[];
  /** files kept or made together (OutputGroup) */
  groups: OutputGroup[];
  lists: PageList[];
  /** each list's item hashes (the manifest's), in `lists` order, when the renderer made them; else the writer does */
  listItemHashes?: readonly string[][];
  /** where a page goes: `…/{filter}/{limit}/{offset}.json` */
  pageTemplate: string;
  /** the folder of response bodies (`v1/`): only these get precompressed siblings, never host configs */
  bodyDir: string;
  maxLimit: number;
  /** where the hash tree over the bodies goes (E2) */
  hashTree: HashTreeLayout;
  /** the pieces (E2): each list's and those of the bodies made of pieces (the catalog body), and their files */
  pieces: SitePieces;
  /**
   * Validates list `list`'s page envelopes and the items at `items` (throws when one breaks its schema). Called for
   * each list whose pages are written: an item equal to one the previous build of the same code wrote was checked then.
   */
  checkList?: (list: number, items: "all" | number[]) => void;
  /** whether a file is a served file (api/served-files.ts), for the counts a build reports; default: all are */
  isServed?: (path: string) => boolean;
}

export interface SitePieces {
  /** each list's pieces, in `lists` order */
  lists: Piece[][];
  /** the bodies made of pieces: their request target and their parts, asked once they are written */
  bodies: { target: string; parts: () => BodyPart[] }[];
  /** every piece's file, once each, asked once the bodies are written */
  files: () => OutputFile[];
  /** hands the renderers the pieces the build before made, by key (a rebuild, before any body is written) */
  recall?: (previous: RecallPieces) => void;
}

export interface WriteOptions extends GenerationOptions {
  compress: boolean;
  /** `runs`: no list page is written, each list is held once as its run (L2); default `pages` */
  layout?: BuildLayout;
  /** page writer threads started ahead (the caller stops those left unused) */
  pageWriters?: PageWriters;
  onProgress?: (written: number) => void;
}

export interface WriteSummary {
  mode: "full" | "incremental";
  /** how the working copy was made: written from nothing, a recycled older generation, or a hard-link clone */
  base: Base["kind"];
  /** the generation folder now published */
  generation: string;
  /** the whole tree after this build */
  files: number;
  bytes: number;
  /** what this build wrote and removed */
  written: number;
  writtenBytes: number;
  deleted: number;
  /** bodies made (small files rendered, kept ones not; list pages written) and their bytes */
  rendered: number;
  renderedBytes: number;
  /** bodies hashed (pages' digests included) and the bytes fed to SHA-256: a body hashed twice counts twice */
  hashed: number;
  hashedBytes: number;
  /** the tree in the words every command counts in, and what changed against the live build (io/tree-report.ts) */
  counts: TreeCounts;
}

export async function writeOutput(outDir: string, site: SiteOutput, options: WriteOptions): Promise<WriteSummary> {
  let changes: TreeChanges | undefined;
  const onPublished = (storeDir: string, generation: string) => {
    // A build compared with nothing (a full one) leaves nothing: the next rebuild reads the live manifest instead.
    if (changes?.against) rememberChanges(storeDir, generation, changes);
  };
  return writeGeneration(outDir, { ...options, onPublished }, async (work, base, trash) => {
    const written = base.manifest
      ? await writeIncremental(work, site, options, base.manifest, base.kind, trash, base)
      : await writeFull(work, site, options, base);
    changes = written.changes;
    return written.summary;
  });
}

async function writeFull(work: string, site: SiteOutput, options: WriteOptions, from: Base): Promise<Written> {
  for (const list of site.lists.keys()) site.checkList?.(list, "all");
  const units: PageUnit[] = !writesPages(options)
    ? []
    : site.lists.flatMap((_, list) =>
        Array.from({ length: site.maxLimit }, (_, i) => ({
          list,
          limit: i + 1,
          offsets: "all" as const,
          replace: false,
        })),
      );
  // Small files, the pieces and the hash tree from the main thread while the page writer threads write pages.
  const [small, pages] = await both(
    writeSmallFiles(work, site.files, undefined, options.compress && site.bodyDir, site.groups).then(async (bodies) =>
      writeHashTree(work, site, options, bodies, undefined),
    ),
    writePages(
      { root: work, pageTemplate: site.pageTemplate, lists: site.lists, units, compress: options.compress },
      options.onProgress,
      options.pageWriters,
    ),
  );
  const lists = manifestLists(site.lists, site.listItemHashes);
  countWrittenLists(site.lists, lists, pages.perList);
  const tree = { files: small.written + pages.written, bytes: small.writtenBytes + pages.writtenBytes };
  writeBuildIndex(work, layoutOf(options), small.sizes, site.isServed ?? served, site.lists, site.pieces.lists);
  writeManifest(work, options.fingerprint, small, lists, tree);
  const report = reportTree({
    base: from,
    isServed: site.isServed ?? served,
    small,
    lists,
    listsChanged: [],
    maxLimit: pageLimits(site, options),
  });
  const summary: Omit<WriteSummary, "generation"> = {
    counts: report.counts,
    mode: "full",
    base: "fresh",
    ...tree,
    written: tree.files,
    writtenBytes: tree.bytes,
    deleted: 0,
    ...workCounts(small, pages),
  };
  return { summary, changes: report.changes };
}

async function writeIncremental(
  work: string,
  site: SiteOutput,
  options: WriteOptions,
  previous: Manifest,
  base: Base["kind"],
  trash: Trash,
  from: Base,
): Promise<Written> {
  const listDir = (filter: string) =>
    dirname(dirname(join(work, fill(site.pageTemplate, { filter, limit: 1, offset: 0 }))));
  const nextLists = manifestLists(site.lists, site.listItemHashes);
  const units: PageUnit[] = [];
  const fresh = new Set<string>();
  const plans: (OffsetPlan[] | undefined)[] = [];
  // A list written whole (its length changed) checks only the items no list of the build before held: those were
  // checked by it (the same code), and a recalled tool's summary is then never made again to be checked.
  let heldBefore: Set<string> | undefined;
  const toCheck = (changed: "all" | number[], hashes: string[]): number[] => {
    if (changed !== "all") return changed;
    heldBefore ??= new Set(Object.values(previous.lists).flatMap((l) => l.items));
    return hashes.flatMap((hash, i) => (heldBefore!.has(hash) ? [] : [i]));
  };
  for (const [index, list] of site.lists.entries()) {
    const hashes = nextLists[list.filter]!.items;
    const plan = planList(index, list, hashes, previous.lists[list.filter], site.maxLimit);
    plans.push(plan?.offsets);
    if (!plan) continue;
    site.checkList?.(index, toCheck(plan.changed, hashes));
    if (plan.fresh) {
      fresh.add(list.filter);
      // Out of the way at once, deleted by another process meanwhile.
      if (previous.lists[list.filter] && writesPages(options)) await trash.discard(listDir(list.filter));
    }
    // A runs build writes no page: each follows from its list's run (written with the small files).
    if (!writesPages(options)) continue;
    plan.offsets.forEach((offsets, i) => {
      if (offsets === "all" || offsets.length > 0)
        units.push({ list: index, limit: i + 1, offsets, replace: !plan.fresh });
    });
  }
  // Lists that no longer exist (a category was removed): their whole folder goes.
  for (const filter of Object.keys(previous.lists))
    if (!nextLists[filter] && writesPages(options)) await trash.discard(listDir(filter));

  const inHashTree = hashTreeFolder(site);
  site.pieces.recall?.(recallPieces(work, previous, piecesFolder(site)));
  // The hash tree names no page: it is written while the page writer threads still write pages.
  const [small, pages] = await both(
    writeSmallFiles(
      work,
      site.files,
      manifestPart(previous, (path) => !path.startsWith(inHashTree)),
      options.compress && site.bodyDir,
      site.groups,
    )
      .then(async (bodies) => writeHashTree(work, site, options, bodies, previous))
      // The main thread has nothing left to do while pages are written: the deleting processes start now.
      .then(async (stats) => {
        await trash.standby();
        return stats;
      }),
    writePages(
      { root: work, pageTemplate: site.pageTemplate, lists: site.lists, units, compress: options.compress },
      options.onProgress,
      options.pageWriters,
    ),
  );

  const lists = countChangedLists(site.lists, nextLists, previous.lists, fresh, pages.perList);
  const tree = {
    files: previous.tree.files + small.created - small.deleted + lists.files,
    bytes: previous.tree.bytes + small.writtenBytes - small.removedBytes + lists.bytes,
  };
  writeBuildIndex(work, layoutOf(options), small.sizes, site.isServed ?? served, site.lists, site.pieces.lists);
  writeManifest(work, options.fingerprint, small, nextLists, tree);
  const report = reportTree({
    base: from,
    isServed: site.isServed ?? served,
    small,
    lists: nextLists,
    // A list whose items are the base's has no plan; one the base had and this build has not is gone.
    listsChanged: [
      ...site.lists.flatMap((list, i) => (plans[i] === undefined ? [] : [list.filter])),
      ...Object.keys(previous.lists).filter((filter) => !nextLists[filter]),
    ],
    maxLimit: pageLimits(site, options),
  });
  const summary: Omit<WriteSummary, "generation"> = {
    counts: report.counts,
    mode: "incremental",
    base,
    ...tree,
    written: small.written + pages.written,
    writtenBytes: small.writtenBytes + pages.writtenBytes,
    deleted: small.deleted + pages.deleted + lists.removedFiles,
    ...workCounts(small, pages),
  };
  return { summary, changes: report.changes };
}

/** A pass's summary, and what it changed against the live build (kept in the store once published). */
interface Written {
  summary: Omit<WriteSummary, "generation">;
  changes: TreeChanges;
}

/** The build's layout: a runs build holds each list once, as a run, and no page file. */
const layoutOf = (options: WriteOptions): BuildLayout => options.layout ?? "pages";
const writesPages = (options: WriteOptions) => layoutOf(options) === "pages";
/** The limits of the page files a list has on disk: none in a runs build (no page file to count or compare). */
const pageLimits = (site: SiteOutput, options: WriteOptions) => (writesPages(options) ? site.maxLimit : 0);

/** Without a route table to ask, every file counts as served. */
const served = () => true;

/** What the build made and hashed: the page writers render each page they write; the main thread hashes. */
const workCounts = (small: SmallStats, pages: PageStats) => ({
  rendered: small.rendered + pages.written,
  renderedBytes: small.renderedBytes + pages.writtenBytes,
  hashed: small.hashed,
  hashedBytes: small.hashedBytes,
});

/** The folder of the hash tree's files (`v1/sync/`). */
const hashTreeFolder = (site: SiteOutput) =>
  site.hashTree.rootFile.slice(0, site.hashTree.rootFile.lastIndexOf("/") + 1);
/** The folder of the pieces (`v1/sync/pieces/`), inside the hash tree's. */
const piecesFolder = (site: SiteOutput) => site.hashTree.pieceFile.slice(0, site.hashTree.pieceFile.indexOf("{"));

/**
 * The pieces, then the hash tree (E2), once the small files are written (pages need not be: the tree names none): its
 * shards, then its root from their hashes. Returns the small files' stats with these passes added, as the manifest
 * records them.
 */
async function writeHashTree(
  work: string,
  site: SiteOutput,
  options: WriteOptions,
  bodies: SmallStats,
  previous: Manifest | undefined,
): Promise<SmallStats> {
  const inHashTree = hashTreeFolder(site);
  const inPieces = piecesFolder(site);
  const compress = options.compress && site.bodyDir;
  // The pieces, once the bodies made of them are written (a piece of the catalog body is made with it).
  const pieceStats = await writeSmallFiles(
    work,
    site.pieces.files(),
    manifestPart(previous, (path) => path.startsWith(inPieces)),
    compress,
  );
  const shards = hashTreeShardFiles({
    layout: site.hashTree,
    readPrevious: (path) => readFileSync(join(work, path), "utf8"),
    lists: site.lists,
    listPieces: site.pieces.lists,
    runs: site.lists.map((list) => {
      const path = runFile(list.filter);
      return { sha256: bodies.hashes.get(path)!, size: bodies.sizes.get(path)! };
    }),
    parts: new Map(site.pieces.bodies.map((b) => [b.target, b.parts])),
    small: bodies,
    // No body served by URL removed: unchanged shards are kept, the others patched (bodies.deleted counts the files
    // this build's bodies pass removed; pieces, which come and go, have a pass of their own).
    previous: previous && { files: previous.files, keys: previous.keys, noneRemoved: bodies.deleted === 0 },
  });
  const shardStats = await writeSmallFiles(
    work,
    shards.files.map((s) => s.file),
    manifestPart(
      previous,
      (path) => path.startsWith(inHashTree) && path !== site.hashTree.rootFile && !path.startsWith(inPieces),
    ),
    compress,
  );
  const rootStats = await writeSmallFiles(
    work,
    [hashTreeRootFile(site.hashTree, shards, shardStats)],
    manifestPart(previous, (path) => path === site.hashTree.rootFile),
    compress,
  );
  return addSmallStats(bodies, pieceStats, shardStats, rootStats);
}

/**
 * The pieces of the working copy, by the key its manifest records for them: a renderer reads such a piece instead of
 * making it again (its id is its file's name).
 */
function recallPieces(work: string, previous: Manifest, inPieces: string): RecallPieces {
  const byKey = new Map<string, string>();
  previous.keys.forEach((key, path) => {
    if (path.startsWith(inPieces)) byKey.set(key, path);
  });
  return (key) => {
    const path = byKey.get(key);
    if (path === undefined) return undefined;
    return {
      id: path.slice(inPieces.length, -".json".length),
      size: previous.sizes.get(path)!,
      body: () => readFileSync(join(work, path)),
    };
  };
}

/** Both results, or the first error once both have stopped: the working folder is removed only when nobody writes in it. */
async function both<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === "rejected") throw ra.reason;
  if (rb.status === "rejected") throw rb.reason;
  return [ra.value, rb.value];
}
