// The build's manifest in the bucket: runs of dist paths in sorted order (worker/r2-layout.ts), cut where the content
// says (a folder changes, or a path's hash says so), never by position, so an inserted file changes only the shard
// it lands in; each list (its run's place and items' lengths) is a shard of its own: a one-price edit rewrites a
// handful of small shards, an inserted tool those of the lists it joins. Each shard is gzip-compressed JSON named by its own hash.
import { gunzipSync, gzipSync } from "node:zlib";
import { sha256Hex } from "../../../api/sha256-node.ts";
import type { ManifestShard } from "../worker/r2-layout.ts";

/** No shard is cut by a hash before it holds this many paths, and every shard is cut at this many. */
const MIN_PATHS = 512;
const MAX_PATHS = 8192;
/** About one path in this many ends a shard by its hash. */
const HASH_CUT = 4096;

/** The group a path's shard must not leave: its folder, a list's limit folders together. */
const groupOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/"))).replace(/\/\d+$/, "");

/** FNV-1a over the path's UTF-16 code units. */
function fnv(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    hash ^= path.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Sorted paths cut into shards (each a run of them); a path `alone` says is a shard of its own (a list). */
export function cutShards(sorted: readonly string[], alone: (path: string) => boolean = () => false): string[][] {
  const shards: string[][] = [];
  let current: string[] = [];
  for (const path of sorted) {
    const last = current.at(-1);
    if (
      last !== undefined &&
      (alone(last) ||
        alone(path) ||
        groupOf(last) !== groupOf(path) ||
        current.length >= MAX_PATHS ||
        (current.length >= MIN_PATHS && fnv(last) % HASH_CUT === 0))
    ) {
      shards.push(current);
      current = [];
    }
    current.push(path);
  }
  if (current.length > 0) shards.push(current);
  return shards;
}

/** What a shard says of the catalog alone (paths, bodies, sizes), whatever packs hold the bodies. */
export const shardDigest = (entries: readonly (readonly [path: string, etag: string, size: number])[]): string =>
  sha256Hex(entries.map(([p, e, s]) => `${p}\t${e}\t${s}\n`).join("")).slice(0, 32);

/** A shard's stored bytes and name. */
export function encodeShard(shard: ManifestShard): { name: string; body: Uint8Array } {
  const body = gzipSync(JSON.stringify(shard), { level: 9 });
  return { name: sha256Hex(body).slice(0, 32), body };
}

export const decodeShard = (body: Uint8Array): ManifestShard =>
  JSON.parse(gunzipSync(body).toString("utf8")) as ManifestShard;
