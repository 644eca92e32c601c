// How builds live in the R2 bucket, for the uploader (Node) and the Worker (workerd) alike. Web APIs only.
//
//   objects/<sha256>              a body, stored once however many builds have it
//   builds/<id>/manifest-<k>.json  shard k of the build's manifest: dist path → [sha256, size, ETag]
//   builds/<id>/build.json         the build's record, written after its manifest: the build is complete
//   live.json                     the pointer: which build answers; switched by one conditional put
//   uploads/<token>.json          an upload under way (prune leaves objects alone while one is fresh)
//
// A build is immutable: its id is derived from its manifest, so the same build uploaded twice is the same id.

/** path → [sha256 hex, size, ETag] */
export type ManifestEntry = [sha256: string, size: number, etag: string];
export type ManifestShard = Record<string, ManifestEntry>;

export interface BuildRecord {
  id: string;
  /** when the upload completed it (ISO 8601); not part of the id */
  createdAt: string;
  files: number;
  bytes: number;
  shards: number;
}

export interface LivePointer {
  build: string;
  /** the build's shard count, so a Worker finds a path's shard without reading the record */
  shards: number;
  /** the build live before this one: what --rollback without an id returns to */
  previous: string | null;
  switchedAt: string;
}

export const LIVE_KEY = "live.json";
export const OBJECTS_PREFIX = "objects/";
export const BUILDS_PREFIX = "builds/";
export const UPLOADS_PREFIX = "uploads/";
export const objectKey = (sha256: string) => `${OBJECTS_PREFIX}${sha256}`;
export const buildRecordKey = (id: string) => `${BUILDS_PREFIX}${id}/build.json`;
/** The build a key is the record of, or null for any other key. */
export const buildOfRecordKey = (key: string): string | null => {
  const id = key.slice(BUILDS_PREFIX.length, key.indexOf("/", BUILDS_PREFIX.length));
  return id && key === buildRecordKey(id) ? id : null;
};
export const manifestShardKey = (id: string, shard: number) => `${BUILDS_PREFIX}${id}/manifest-${shard}.json`;

/** At most this many paths per manifest shard (a power of two of shards): a few dozen kB, cached whole in an isolate. */
export const PATHS_PER_SHARD = 1024;

export const shardCount = (files: number) => 2 ** Math.ceil(Math.log2(Math.max(1, Math.ceil(files / PATHS_PER_SHARD))));

/** FNV-1a over the path's UTF-16 code units: the same shard in Node and in workerd, synchronously. */
export function shardOf(path: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    hash ^= path.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}
