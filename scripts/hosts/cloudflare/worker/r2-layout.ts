// How builds live in the R2 bucket, for the uploader (Node) and the Worker (workerd) alike. Web APIs only. The format,
// byte for byte, is docs/hosts/r2-bucket-format.md; this file is its code.
//
//   packs/<name>              stored bodies one after the other: each body gzip-compressed on its own, or (a list's
//                             piece) its bytes as they are, range-readable; then the pack's index (JSON) and its
//                             length (12 ASCII digits): a body, or any page's items in a piece, is one ranged read
//   shards/<name>             a piece of a build's manifest, gzip-compressed JSON: a run of keys in sorted order, each
//                             a file (body id, size, where it lies: pack, offset, length, coding), a list (its pieces:
//                             where each lies and its items' lengths; the pages' envelopes are the Worker's to write)
//                             or a body in parts (texts and pieces, streamed in order: the export)
//   builds/<id>/build.json    the build's record: its shards (first key and name each), its packs; written after
//                             every pack and shard it names: the build is complete
//   live.json                 the pointer: which build answers, with its shard list; switched by one conditional put
//   uploads/<token>.json      an upload under way (prune waits for it)
//
// Packs and shards are named by the first 32 hex digits of the SHA-256 of their bytes: immutable, written once, shared
// by every build that has them. A build's id is derived from what its keys say, so the same build uploaded twice is
// the same id.

/** The bucket's layout: raised when what a Worker or an upload reads changes shape (2: lists as runs; 3: lists and the
 *  export as pieces). A pointer or a record of another format was written by another layout, which this code neither
 *  serves nor rolls back to. */
export const LAYOUT_FORMAT = 3;

/** How a stored body's bytes lie in its pack: one gzip member, or as they are (a list's piece: range-readable). */
export type StoredCoding = "gzip" | "identity";

/** One file of a build: [dist path, ETag (= body id), size, pack (index into the shard's packs), offset, length,
 *  coding]. gzip: `length` bytes that decode to `size`; identity: `size` bytes as they are (`length` = `size`). */
export type ShardEntry = [
  path: string,
  etag: string,
  size: number,
  pack: number,
  offset: number,
  length: number,
  coding: StoredCoding,
];

/** One piece of a list: [piece id (SHA-256 hex of its body), pack, offset, each item's length in bytes]. Stored as it
 *  is: `[` + its items joined by `,` + `]`, so its items o…e−1 are one range of it. */
export type ListPiece = [id: string, pack: number, offset: number, lengths: number[]];

/**
 * One list of GET /software: [list key, list id, meta.category, its pieces in order]. A page is
 * `{"data":[` + items o…o+L−1 + `],"meta":{…}}`, byte for byte the page file a pages build writes: at most three
 * ranged reads (one per piece it spans; adjacent pieces of one pack in one).
 */
export type ListEntry = [key: string, id: string, category: string | null, pieces: ListPiece[]];

/** A piece of a body in parts: [piece id, pack, offset, length, size], stored as a gzip body (`[` + items + `]`). */
export type BodyPiece = [id: string, pack: number, offset: number, length: number, size: number];
/** A text (sent as its UTF-8 bytes) or pieces (their items, without their brackets, joined by `,`). */
export type BodyPart = string | BodyPiece[];
/** A body stored in parts, never whole (the export): [dist path, ETag, size, parts]; the body is the parts in order. */
export type PartedEntry = [path: string, etag: string, size: number, parts: BodyPart[]];

/** A manifest shard: the packs its entries point into, and its keys: files, lists and bodies in parts, each sorted. */
export interface ManifestShard {
  packs: string[];
  files: ShardEntry[];
  lists?: ListEntry[];
  parted?: PartedEntry[];
}

/** A shard as a build names it: the first key it holds, its name, a digest of what its keys say (what an upload
 *  compares to keep it unread), the packs it points into, and the stored bytes it points at. */
export type ShardRef = [first: string, name: string, digest: string, packs: string[], storedBytes: number];

export interface BuildRecord {
  /** LAYOUT_FORMAT of the upload that wrote it (absent: the first layout, one body per page) */
  format?: number;
  id: string;
  /** when the upload completed it (ISO 8601); not part of the id */
  createdAt: string;
  /** its files: file entries and bodies in parts */
  files: number;
  /** its lists (format 3) */
  lists?: number;
  /** the files' bytes, decoded, each file counted */
  bytes: number;
  /** the sum of its shards' storedBytes */
  storedBytes: number;
  shards: ShardRef[];
  /** every pack its shards point into */
  packs: string[];
}

export interface LivePointer {
  /** LAYOUT_FORMAT of the build it names (absent: the first layout) */
  format?: number;
  build: string;
  /** the build's shards (first key and name), so a Worker finds a key's shard without reading the record */
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

/** A list's key in the manifest: the page template's folder for it (`v1/software/pages/category/seo`). */
export const listKey = (pageTemplate: string, filter: string) =>
  pageTemplate.slice(0, pageTemplate.indexOf("{filter}")) + filter;

/** A pack ends with its index's length in this many ASCII digits. */
export const PACK_TRAILER = 12;
/** A pack's index: [body id (ETag), size, offset, length] of every body in it, and "identity" after a body stored as
 *  it is (without it, the body is one gzip member). Format 2 packs also hold `run:` entries, which format 3 ignores. */
export type PackIndexEntry =
  | [etag: string, size: number, offset: number, length: number]
  | [etag: string, size: number, offset: number, length: number, coding: "identity"];
export type PackIndex = PackIndexEntry[];

/** How a stored body is known, whichever pack holds it: its ETag, and its coding when it is not gzip. */
export const storedId = (etag: string, coding: StoredCoding = "gzip") =>
  coding === "gzip" ? etag : `${etag} ${coding}`;

/** The shard of a sorted shard list holding `key`: the last whose first key is not after it. */
export function shardFor(shards: readonly (readonly [string, ...unknown[]])[], key: string): number {
  let lo = 0;
  let hi = shards.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (shards[mid]![0] <= key) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** An entry of a sorted array whose entries begin with their key, or undefined. */
function sortedFind<T extends readonly [string, ...unknown[]]>(entries: readonly T[] | undefined, key: string) {
  if (!entries) return undefined;
  let lo = 0;
  let hi = entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = entries[mid]![0];
    if (k === key) return entries[mid];
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** A file entry of a shard by path, or undefined. */
export const entryOf = (shard: ManifestShard, path: string): ShardEntry | undefined => sortedFind(shard.files, path);
/** A list entry of a shard by key, or undefined. */
export const listOf = (shard: ManifestShard, key: string): ListEntry | undefined => sortedFind(shard.lists, key);
/** A body in parts of a shard by path, or undefined. */
export const partedOf = (shard: ManifestShard, path: string): PartedEntry | undefined => sortedFind(shard.parted, path);

/** A list piece's stored bytes: `[`, its items with a comma between each two, `]`. */
export const listPieceSize = (lengths: readonly number[]): number =>
  lengths.reduce((sum, length) => sum + length, 0) + Math.max(0, lengths.length - 1) + 2;

/** Every key a shard holds, sorted: its files', lists' and parted bodies' together. */
export const shardKeys = (shard: ManifestShard): string[] =>
  [
    ...shard.files.map((e) => e[0]),
    ...(shard.lists ?? []).map((e) => e[0]),
    ...(shard.parted ?? []).map((e) => e[0]),
  ].sort(compareKeys);

/** Keys compare as strings of UTF-16 code units (for the ASCII keys a build has, byte order). */
export const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What a key says of the catalog, one line each (digests and the build id hash these): a file or a body in parts
 * `<path>\t<ETag>\t<size>\n`, a list `<key>\t<list id>\t<items>\n`.
 */
export const keyLine = (key: string, id: string, count: number): string => `${key}\t${id}\t${count}\n`;

/** The text a list's id hashes: its category and its pieces' ids, as JSON (`["seo",["ab12…","cd34…"]]`). */
export const listIdText = (category: string | null, pieceIds: readonly string[]): string =>
  JSON.stringify([category, pieceIds]);
