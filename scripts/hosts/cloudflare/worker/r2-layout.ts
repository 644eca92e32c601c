// How builds live in the R2 bucket, for the uploader (Node) and the Worker (workerd) alike. Web APIs only.
//
//   packs/<name>              bodies, each gzip-compressed on its own, one after the other, and list runs (a list's
//                             items' JSON joined by commas, as they are: not compressed), then the pack's index
//                             (JSON) and its length (12 ASCII digits): a body, or any page's items, is one ranged read
//   shards/<name>             a piece of a build's manifest, gzip-compressed JSON: a run of dist paths in sorted
//                             order → body id, size, and where the body lies (pack, offset, length); or one list:
//                             where its run lies, its category and each item's length (the pages' envelopes are
//                             the Worker's to write)
//   builds/<id>/build.json    the build's record: its shards (first path and name each), its packs; written after
//                             every pack and shard it names: the build is complete
//   live.json                 the pointer: which build answers, with its shard list; switched by one conditional put
//   uploads/<token>.json      an upload under way (prune waits for it)
//
// Packs and shards are named by the first 32 hex digits of the SHA-256 of their bytes: immutable, written once, shared
// by every build that has them. A build's id is derived from its files' hashes, so the same build uploaded twice is
// the same id.

/** The bucket's layout: raised when what a Worker or an upload reads changes shape (2: lists as runs). A pointer or
 *  a record of another format was written by another layout, which this code neither serves nor rolls back to. */
export const LAYOUT_FORMAT = 2;

/** One file of a build: [dist path, ETag (= body id), size, pack (index into the shard's packs), offset, length]. */
export type ShardEntry = [path: string, etag: string, size: number, pack: number, offset: number, length: number];

/**
 * One list of GET /software: [list key, run id, pack, offset, length, meta.category, each item's length in bytes].
 * The run is the items' JSON joined by commas, stored as it is, so items o…e-1 are one ranged read; a page is
 * `{"data":[` + those bytes + `],"meta":{…}}`, byte for byte the page file a full build writes.
 */
export type ListEntry = [
  key: string,
  run: string,
  pack: number,
  offset: number,
  length: number,
  category: string | null,
  lengths: number[],
];

/** A manifest shard: the packs its entries point into, its files in path order, and (a list's shard) its list. */
export interface ManifestShard {
  packs: string[];
  files: ShardEntry[];
  lists?: ListEntry[];
}

/** A shard as a build names it: the first path it holds, its name, a digest of its paths and bodies only (what an
 *  upload compares to keep it unread), the packs it points into, and its bodies' stored bytes. */
export type ShardRef = [first: string, name: string, digest: string, packs: string[], storedBytes: number];

export interface BuildRecord {
  /** LAYOUT_FORMAT of the upload that wrote it (absent: the first layout, one body per page) */
  format?: number;
  id: string;
  /** when the upload completed it (ISO 8601); not part of the id */
  createdAt: string;
  files: number;
  /** the files' bytes, decoded */
  bytes: number;
  /** the files' bytes as stored (gzip), a body counted once per shard */
  storedBytes: number;
  shards: ShardRef[];
  /** every pack its shards point into */
  packs: string[];
}

export interface LivePointer {
  /** LAYOUT_FORMAT of the build it names (absent: the first layout) */
  format?: number;
  build: string;
  /** the build's shards (first path and name), so a Worker finds a path's shard without reading the record */
  shards: [first: string, name: string][];
  /** the build live before this one: what --rollback without an id returns to */
  previous: string | null;
  switchedAt: string;
}

export const LIVE_KEY = "live.json";
export const PACKS_PREFIX = "packs/";
export const SHARDS_PREFIX = "shards/";
export const BUILDS_PREFIX = "builds/";
export const UPLOADS_PREFIX = "uploads/";
export const packKey = (name: string) => `${PACKS_PREFIX}${name}`;
export const shardKey = (name: string) => `${SHARDS_PREFIX}${name}`;
export const buildRecordKey = (id: string) => `${BUILDS_PREFIX}${id}/build.json`;
/** The build a key is the record of, or null for any other key. */
export const buildOfRecordKey = (key: string): string | null => {
  const id = key.slice(BUILDS_PREFIX.length, key.indexOf("/", BUILDS_PREFIX.length));
  return id && key === buildRecordKey(id) ? id : null;
};

/** The pack index's name of a list's run (beside bodies' ETags, which are quoted). */
export const runId = (run: string) => `run:${run}`;

/** A list's key in the manifest: the page template's folder for it (`v1/software/pages/category/seo`). */
export const listKey = (pageTemplate: string, filter: string) =>
  pageTemplate.slice(0, pageTemplate.indexOf("{filter}")) + filter;

/** A pack ends with its index's length in this many ASCII digits. */
export const PACK_TRAILER = 12;
/** A pack's index: [body id, size, offset, length] of every body in it. */
export type PackIndex = [etag: string, size: number, offset: number, length: number][];

/** The shard of a sorted shard list holding `path`: the last whose first path is not after it. */
export function shardFor(shards: readonly (readonly [string, ...unknown[]])[], path: string): number {
  let lo = 0;
  let hi = shards.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (shards[mid]![0] <= path) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A list entry of a shard by key, or undefined. */
export const listOf = (shard: ManifestShard, key: string): ListEntry | undefined =>
  shard.lists?.find((entry) => entry[0] === key);

/** An entry of a sorted shard by path, or undefined. */
export function entryOf(shard: ManifestShard, path: string): ShardEntry | undefined {
  let lo = 0;
  let hi = shard.files.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = shard.files[mid]![0];
    if (p === path) return shard.files[mid];
    if (p < path) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}
