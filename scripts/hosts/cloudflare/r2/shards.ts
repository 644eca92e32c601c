// The build's manifest in the bucket (worker/r2-layout.ts): its keys (files, lists, bodies in parts) in sorted order,
// cut into shards where the content says, never by position (the pieces' rule, over keys): walking the keys in order,
// a shard ends after a key when it holds at least SHARD_KEYS.min keys and the key's hash is 0 modulo
// SHARD_KEYS.spread, or when it holds SHARD_KEYS.max. So an inserted key changes only the shard it lands in (or
// splits it in two), a one-price edit rewrites the few shards holding the bodies it changed, and an inserted tool
// those of its bodies, its lists and its pieces. Each shard is gzip-compressed JSON named by its own hash.
// More, smaller shards send fewer bytes per change and cost more writes per upload: docs/hosts/cloudflare.md has the
// figures behind the balance set here.
import { hash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { sha256Hex } from "../../../api/sha256-node.ts";
import type { ManifestShard } from "../worker/r2-layout.ts";

export interface ShardBounds {
  /** no cut before a shard holds this many keys */
  min: number;
  /** a cut after a key whose hash is 0 modulo this: shards of about min + spread keys */
  spread: number;
  /** a cut whatever the key once a shard holds this many */
  max: number;
}

/** The balance: 15,384 tools make about 25 shards of about 700 keys (about 25 kB each, gzip-compressed). */
export const SHARD_KEYS: ShardBounds = { min: 256, spread: 512, max: 4096 };

/** The first four bytes of the SHA-256 of the key's UTF-8 bytes, as a big-endian number. */
export const keyHash = (key: string): number => hash("sha256", key, "buffer").readUInt32BE(0);

/** Sorted keys cut into shards, each a run of them. */
export function cutShards(sorted: readonly string[], bounds: ShardBounds = SHARD_KEYS): string[][] {
  const shards: string[][] = [];
  let current: string[] = [];
  for (const key of sorted) {
    current.push(key);
    if (current.length === bounds.max || (current.length >= bounds.min && keyHash(key) % bounds.spread === 0)) {
      shards.push(current);
      current = [];
    }
  }
  if (current.length > 0) shards.push(current);
  return shards;
}

/** What a shard says of the catalog alone (its keys' lines, worker/r2-layout.ts keyLine), whatever packs hold what. */
export const shardDigest = (lines: readonly string[]): string => sha256Hex(lines.join("")).slice(0, 32);

/** A shard's stored bytes and name. */
export function encodeShard(shard: ManifestShard): { name: string; body: Uint8Array } {
  const body = gzipSync(JSON.stringify(shard), { level: 9 });
  return { name: sha256Hex(body).slice(0, 32), body };
}

export const decodeShard = (body: Uint8Array): ManifestShard =>
  JSON.parse(gunzipSync(body).toString("utf8")) as ManifestShard;
