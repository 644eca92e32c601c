// The ids of the last good build's list pieces, by what their items hash to (render/pieces.ts PieceIds), kept in the
// store folder beside the content cache: a rebuild takes an unchanged piece's id from here instead of joining and
// hashing its body. An id is the SHA-256 of the piece's body and the key names exactly its items, so any build's
// entry is true for any later build of the same code; another code (the key) and none is trusted.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { writeCacheFile } from "../launcher/project-cache.cjs";
import type { PieceIds } from "../render/pieces.ts";

export const PIECE_ID_CACHE_FILE = ".piece-ids.v8";

/** Field by field (scripts/content/cache-columns.ts says why). */
interface PieceIdCache {
  key: string;
  keys: string[];
  ids: string[];
  sizes: number[];
}

export function readPieceIds(storeDir: string, key: string): PieceIds {
  try {
    const cache = deserialize(readFileSync(join(storeDir, PIECE_ID_CACHE_FILE))) as PieceIdCache;
    if (cache.key !== key) return new Map();
    return new Map(cache.keys.map((k, i) => [k, [cache.ids[i]!, cache.sizes[i]!]]));
  } catch {
    return new Map();
  }
}

/** After a good build: this build's pieces, when they are not the ones read. Best effort: without it the next build
 *  hashes every piece. */
export function writePieceIds(storeDir: string, key: string, made: PieceIds, read: PieceIds): void {
  if (made.size === read.size && [...made.keys()].every((k) => read.has(k))) return;
  const entries = [...made];
  const cache: PieceIdCache = {
    key,
    keys: entries.map(([k]) => k),
    ids: entries.map(([, [id]]) => id),
    sizes: entries.map(([, [, size]]) => size),
  };
  try {
    writeCacheFile(join(storeDir, PIECE_ID_CACHE_FILE), serialize(cache));
  } catch {
    // an unwritable store folder fails the build elsewhere, with its own message
  }
}
