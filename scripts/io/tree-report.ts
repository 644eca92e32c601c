// What a build tells its user about the tree: how many served files and build records it holds (the words every
// command counts in: docs/hosts/layout.md#counting-a-build), and for an incremental build what changed against the
// build that was live when it started, not what it wrote: a rebuild brings the generation *before* the live one up to
// date (generation.ts), so what it writes also holds the live build's own changes.
//
// Without reading the live build's manifest (a rebuild reads one manifest whole, not two): each build leaves in the
// store what it changed against the build live before it (CHANGES_FILE), which is exactly the generation the next
// build recycles. The live build is then the recycled base with those changes applied. In the store, not in the
// generation: the same content makes the same tree, whatever builds came before.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadRouteTable } from "../api/load-route-table.ts";
import { MAX_LIMIT } from "../api/runtime/route-table.ts";
import { servedFileFilter } from "../api/served-files.ts";
import { writeCacheFile } from "../launcher/project-cache.cjs";
import type { Base } from "./generation.ts";
import { type Manifest, readManifest } from "./manifest.ts";

export const CHANGES_FILE = ".build-changes.json";

/** The manifest and the build's index (io/build-index.ts) are build records, written beside the tree after it is
 *  counted. */
const OWN_RECORDS = 2;

/** What a build changed against the build live before it, for the next build. */
export interface TreeChanges {
  /** the generation this build was compared with (the one live when it started); null: not compared */
  against: string | null;
  /** files other than list pages whose bytes differ from it: the new SHA-256, or null when gone */
  files: Record<string, string | null>;
  /** lists whose items differ from it: the new list, or null when gone */
  lists: Record<string, { category: string | null; items: string[] } | null>;
}

interface ChangesFile extends TreeChanges {
  /** the generation these are the changes of */
  generation: string;
}

export interface TreeCounts {
  /** served files (the route table's: bodies, error bodies, the docs page), precompressed siblings aside */
  served: number;
  /** everything else the build wrote: routes.json, the manifest, host configs… */
  records: number;
  recordBytes: number;
  /** served files changed, added and removed against the build live when this one started; absent: not compared */
  changes?: { changed: number; added: number; removed: number };
}

export interface TreeReportInput {
  base: Base;
  isServed: (path: string) => boolean;
  /** every file but the list pages, as the manifest records them, and what the writer says changed (small-files.ts) */
  small: {
    hashes: ReadonlyMap<string, string>;
    sizes: ReadonlyMap<string, number>;
    changedPaths: readonly string[];
    removedPaths: readonly string[];
    untargeted: readonly string[];
  };
  lists: Manifest["lists"];
  /** the lists whose items differ from the base's, and those gone from it */
  listsChanged: readonly string[];
  maxLimit: number;
}

/** How many pages a list of `length` items has on disk (every limit, every offset 0…length), none when unwritten. */
const pagesOf = (list: { items: readonly unknown[]; files?: number }, maxLimit: number) =>
  list.files === 0 ? 0 : maxLimit * (list.items.length + 1);

/**
 * Counts the tree and compares it with the live build; `changes` is for rememberChanges once it is published. Looks
 * only at what the writer changed against its base and what the live build changed against that base: a rebuild's
 * cost, not the tree's.
 */
export function reportTree(input: TreeReportInput): { counts: TreeCounts; changes: TreeChanges } {
  const { small, lists, maxLimit, isServed } = input;
  // Bodies served by URL carry their request target: the route table is asked only about the others.
  let records = OWN_RECORDS;
  let recordBytes = 0;
  for (const path of small.untargeted)
    if (!isServed(path)) {
      records++;
      recordBytes += small.sizes.get(path)!;
    }
  let served = small.hashes.size - (records - OWN_RECORDS);
  for (const list of Object.values(lists)) served += pagesOf(list, maxLimit);
  const live = liveOf(input);
  const next: TreeChanges = { against: live ? input.base.live!.name : null, files: {}, lists: {} };
  const changes = live ? compare(input, live, next) : undefined;
  return { counts: { served, records, recordBytes, changes }, changes: next };
}

/** After publication, under the build's lock: `generation`'s changes, for the build after it. Best effort. */
export function rememberChanges(storeDir: string, generation: string, changes: TreeChanges): void {
  try {
    writeCacheFile(join(storeDir, CHANGES_FILE), JSON.stringify({ generation, ...changes } satisfies ChangesFile));
  } catch {
    // without it the next rebuild reads the live build's manifest instead
  }
}

interface LiveTree {
  file: (path: string) => string | undefined;
  list: (filter: string) => { category: string | null; items: readonly string[] } | undefined;
  /** the paths and filters where it may differ from the new tree */
  paths: Iterable<string>;
  filters: Iterable<string>;
}

/**
 * The live build as seen from the base: the base itself when cloned from it (what differs is what the writer
 * changed), else the base and the live build's own changes against it; without those, its manifest (every path).
 */
function liveOf({ base, small, lists, listsChanged }: TreeReportInput): LiveTree | undefined {
  const manifest = base.manifest;
  if (!manifest || !base.live) return undefined;
  const written = [...small.changedPaths, ...small.removedPaths];
  if (base.kind === "cloned")
    return {
      file: (path) => manifest.files.get(path),
      list: (filter) => manifest.lists[filter],
      paths: written,
      filters: listsChanged,
    };
  const changes = readChanges(dirname(base.live.dir));
  if (changes && changes.generation === base.live.name && changes.against === base.name) {
    const { files, lists: liveLists } = changes;
    return {
      file: (path) => (Object.hasOwn(files, path) ? (files[path] ?? undefined) : manifest.files.get(path)),
      list: (filter) => (Object.hasOwn(liveLists, filter) ? (liveLists[filter] ?? undefined) : manifest.lists[filter]),
      paths: [...written, ...Object.keys(files)],
      filters: [...listsChanged, ...Object.keys(liveLists)],
    };
  }
  // The live build was not compared with this base (a --full build of the same code): its manifest says it all.
  const liveManifest = readManifest(base.live.dir);
  return (
    liveManifest && {
      file: (path) => liveManifest.files.get(path),
      list: (filter) => liveManifest.lists[filter],
      paths: [...small.hashes.keys(), ...liveManifest.files.keys()],
      filters: [...Object.keys(lists), ...Object.keys(liveManifest.lists)],
    }
  );
}

function readChanges(storeDir: string): ChangesFile | undefined {
  try {
    return JSON.parse(readFileSync(join(storeDir, CHANGES_FILE), "utf8")) as ChangesFile;
  } catch {
    return undefined;
  }
}

/** Served files changed, added and removed against `live`; fills `next` with every difference. */
function compare(input: TreeReportInput, live: LiveTree, next: TreeChanges): TreeCounts["changes"] {
  const counts = { changed: 0, added: 0, removed: 0 };
  const { small, lists, maxLimit, isServed } = input;
  const seen = new Set<string>();
  for (const path of live.paths) {
    if (seen.has(path)) continue;
    seen.add(path);
    const before = live.file(path);
    const after = small.hashes.get(path);
    if (before === after) continue;
    next.files[path] = after ?? null;
    if (!isServed(path)) continue;
    if (before === undefined) counts.added++;
    else if (after === undefined) counts.removed++;
    else counts.changed++;
  }
  for (const filter of new Set(live.filters)) {
    const before = live.list(filter);
    const after = lists[filter];
    if (before && after && before.category === after.category && sameItems(before.items, after.items)) continue;
    next.lists[filter] = after ? { category: after.category, items: after.items } : null;
    const pages = pageChanges(before?.items, after?.items, maxLimit);
    counts.changed += pages.changed;
    counts.added += pages.added;
    counts.removed += pages.removed;
  }
  return counts;
}

const sameItems = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((h, i) => h === b[i]);

/**
 * Pages of one list that differ between two versions of its items. Every page carries the list's total, so when the
 * length changes every page does; else the pages whose slice holds a changed item.
 */
export function pageChanges(
  before: readonly string[] | undefined,
  after: readonly string[] | undefined,
  maxLimit: number,
): { changed: number; added: number; removed: number } {
  const pages = (items: readonly string[] | undefined) => (items ? maxLimit * (items.length + 1) : 0);
  if (!before || !after || before.length !== after.length) {
    const common = Math.min(pages(before), pages(after));
    return {
      changed: common,
      added: pages(after) - common,
      removed: pages(before) - common,
    };
  }
  const changedItems: number[] = [];
  for (let i = 0; i < after.length; i++) if (before[i] !== after[i]) changedItems.push(i);
  let changed = 0;
  // Page (limit, o) holds items o…o+limit-1: an item at i is on the pages o = i-limit+1 … i (planList's rule).
  for (let limit = 1; limit <= maxLimit; limit++) {
    let covered = -1;
    for (const i of changedItems) {
      const from = Math.max(0, i - limit + 1, covered + 1);
      if (i >= from) changed += i - from + 1;
      covered = i;
    }
  }
  return { changed, added: 0, removed: 0 };
}

/**
 * The served files of a build already written, from its manifest and route table (list pages counted, never listed):
 * what a command that publishes a build says it holds. Undefined without a manifest.
 */
export async function servedFilesOf(dir: string): Promise<number | undefined> {
  const manifest = readManifest(dir);
  if (!manifest) return undefined;
  const isServed = servedFileFilter(await loadRouteTable(dir));
  let served = 0;
  for (const path of manifest.files.keys()) if (isServed(path)) served++;
  for (const list of Object.values(manifest.lists)) served += pagesOf(list, MAX_LIMIT);
  return served;
}
