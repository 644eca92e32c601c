// What the previous build wrote, so the next one writes only what changed (and removes what went away).
// Pages are not listed one by one: a list's item hashes say which pages an edit touches.
import { closeSync, openSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PageList, PageOffsets } from "../render/software-pages.ts";
import { listItemHash } from "../render/tool-texts.ts";
import { withPath } from "./file-errors.ts";

export const MANIFEST_FILE = ".build-manifest.json";
/** Raised whenever the file's shape changes: a manifest of another format is no base for a rebuild. */
const FORMAT = 4;
/** How writeManifest starts the file: its format, then its fingerprint. */
const FINGERPRINT_START = new RegExp(`^\\{"format":${FORMAT},"fingerprint":"([\\w-]*)"`);

export interface Manifest {
  format: typeof FORMAT;
  /** hash of the build's code and options: any change there means a full build */
  fingerprint: string;
  /** every file that is not a list page, with the SHA-256 of its bytes (hex: the hash tree's too) */
  files: ReadonlyMap<string, string>;
  /** the bytes of each of those files */
  sizes: ReadonlyMap<string, number>;
  /** the key of each file rendered with one (OutputFile.key): the same key again, and the file is kept unrendered */
  keys: ReadonlyMap<string, string>;
  /** each page list: meta.category, its items' hashes in order, and the files and bytes of its folder */
  lists: Record<string, ManifestList>;
  /** files and bytes of the whole tree, kept up to date by incremental builds */
  tree: { files: number; bytes: number };
}

/**
 * The file as written: each file one row `[path, sha256, size]` or `[path, sha256, size, key]`. Rows, not objects keyed
 * by path: an object of thousands of keys is slow to parse and as slow to write, on every rebuild.
 */
interface ManifestText extends Omit<Manifest, "files" | "sizes" | "keys"> {
  files: FileRow[];
}
type FileRow = [path: string, sha256: string, size: number, key?: string];

export interface ManifestList {
  category: string | null;
  items: string[];
  files: number;
  bytes: number;
}

/** The SHA-1 of a list item, base64url: what the manifest remembers of each. */
export const hashOf = listItemHash;

/**
 * Each list's item hashes; files and bytes are filled in once its pages are written. `known`: each list's item hashes
 * already made, in `lists` order (SiteOutput.listItemHashes).
 */
export function manifestLists(lists: PageList[], known?: readonly string[][]): Manifest["lists"] {
  // A tool's item is in the "all" list and in each of its categories' lists: hashed once.
  const hashes = new Map<string, string>();
  const itemHash = (item: string) => hashes.get(item) ?? hashes.set(item, hashOf(item)).get(item)!;
  return Object.fromEntries(
    lists.map((l, i) => [
      l.filter,
      { category: l.category, items: known?.[i] ?? l.items.map(itemHash), files: 0, bytes: 0 },
    ]),
  );
}

export function readManifest(outDir: string): Manifest | undefined {
  try {
    const text = JSON.parse(readFileSync(join(outDir, MANIFEST_FILE), "utf8")) as ManifestText;
    if (text.format !== FORMAT) return undefined;
    const files = new Map<string, string>();
    const sizes = new Map<string, number>();
    const keys = new Map<string, string>();
    for (const [path, sha256, size, key] of text.files) {
      files.set(path, sha256);
      sizes.set(path, size);
      if (key !== undefined) keys.set(path, key);
    }
    return { ...text, files, sizes, keys };
  } catch {
    return undefined;
  }
}

/**
 * The fingerprint of the manifest in `outDir`, from the first bytes of the file (its format and fingerprint come
 * first), without reading the rest: a rebuild asks it of the published build and reads one manifest whole, not two.
 */
export function readFingerprint(outDir: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(join(outDir, MANIFEST_FILE), "r");
    const buffer = Buffer.alloc(256);
    const bytesRead = readSync(fd, buffer, 0, 256, 0);
    const start = FINGERPRINT_START.exec(buffer.toString("latin1", 0, bytesRead));
    return start ? start[1] : readManifest(outDir)?.fingerprint;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Which offsets of one limit to write, or "all". */
export type OffsetPlan = PageOffsets;

export interface ListPlan {
  list: number;
  /** per limit (index limit-1) */
  offsets: OffsetPlan[];
  /** the list is written whole into an empty folder (its old folder, if any, is moved out first) */
  fresh: boolean;
  /** the items whose bytes are new: all of them in a fresh list */
  changed: "all" | number[];
}

/**
 * Pages of one list that really change. Every page carries meta.total, so a list whose length changed is
 * rewritten whole; otherwise only pages whose slice holds an item whose bytes changed.
 */
export function planList(
  index: number,
  next: PageList,
  nextHashes: string[],
  previous: ManifestList | undefined,
  maxLimit: number,
): ListPlan | undefined {
  // Creating files in an empty folder is the fast path; replacing them one by one costs two renames each.
  const fresh = (): ListPlan => ({
    list: index,
    fresh: true,
    changed: "all",
    offsets: Array.from({ length: maxLimit }, () => "all" as const),
  });
  if (!previous || previous.category !== next.category || previous.items.length !== nextHashes.length) return fresh();
  const changed: number[] = [];
  nextHashes.forEach((h, i) => {
    if (previous.items[i] !== h) changed.push(i);
  });
  if (changed.length === 0) return undefined;
  const offsets: OffsetPlan[] = [];
  for (let limit = 1; limit <= maxLimit; limit++) {
    const set = new Set<number>();
    // Page (limit, o) holds items o..o+limit-1: an item at i is on pages o = i-limit+1 … i.
    for (const i of changed) for (let o = Math.max(0, i - limit + 1); o <= i; o++) set.add(o);
    offsets.push([...set].sort((a, b) => a - b));
  }
  return { list: index, fresh: false, changed, offsets };
}

/** Writes the manifest of the working copy, last: without it, a working copy is never the base of a build. */
export function writeManifest(
  root: string,
  fingerprint: string,
  { hashes, keys, sizes }: { hashes: Map<string, string>; keys: Map<string, string>; sizes: Map<string, number> },
  lists: Manifest["lists"],
  tree: Manifest["tree"],
) {
  const rows: FileRow[] = [];
  for (const [path, sha256] of hashes) {
    const key = keys.get(path);
    rows.push(key === undefined ? [path, sha256, sizes.get(path)!] : [path, sha256, sizes.get(path)!, key]);
  }
  // The format and fingerprint first: readFingerprint reads only the file's first bytes.
  const manifest: ManifestText = { format: FORMAT, fingerprint, files: rows, lists, tree };
  const text = JSON.stringify(manifest);
  const path = join(root, MANIFEST_FILE);
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw withPath(e, path);
  }
}
