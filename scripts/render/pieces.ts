// Pieces (E2): each list's items, and the catalog body's software items, cut where the content says, so that an
// edit changes only the piece holding it and an insert the piece it lands in (at most split in two), never the
// pieces after it. A cut depends only on the item it follows and the distance from the last cut (zsync's and prolly
// trees' content-defined boundaries): walking the items in order, a piece ends after item i when it holds at least
// `min` items and either the hash of item i's key (its tool's slug) is 0 modulo `spread`, or it holds `max` items.
//
// A piece's body is `[` + its items joined by `,` + `]` (valid JSON), its id the SHA-256 (hex) of that body: every
// full host serves it at `/v1/sync/pieces/<id>.json`, and whoever fetches it checks it by its name.
import { createHash, hash } from "node:crypto";
import { fill } from "../api/runtime/route-table.ts";
import { lazyFile, type OutputFile } from "./output.ts";

export interface PieceBounds {
  /** no cut before a piece holds this many items */
  min: number;
  /** a cut after an item whose key's hash is 0 modulo this: pieces of about min + spread items */
  spread: number;
  /** a cut whatever the key once a piece holds this many items */
  max: number;
}

/** The lists' pieces: a page of at most 100 items spans at most 3 pieces. 94 pieces of the 15,384-tool list. */
export const LIST_PIECES: PieceBounds = { min: 50, spread: 128, max: 1000 };
/** The catalog body's: its items are about twice a summary, so half as many to a piece. */
export const CATALOG_PIECES: PieceBounds = { min: 25, spread: 64, max: 500 };

/** One piece: its id (the SHA-256 of its body, hex), how many items it holds and its body's bytes. */
export interface Piece {
  id: string;
  items: number;
  size: number;
}

/** The first four bytes of the key's SHA-256, as a big-endian number. */
export const keyHash = (key: string): number => hash("sha256", key, "buffer").readUInt32BE(0);

/**
 * Where the items whose keys are `keys` are cut: how many items each piece holds, in order (none for no items).
 * `hashOf` may remember keys' hashes (a build cuts every list and the catalog body over the same slugs).
 */
export function cutPieces(keys: readonly string[], bounds: PieceBounds, hashOf = keyHash): number[] {
  const counts: number[] = [];
  let start = 0;
  for (let i = 0; i < keys.length; i++) {
    const held = i + 1 - start;
    if (held < bounds.min) continue;
    if (held === bounds.max || hashOf(keys[i]!) % bounds.spread === 0) {
      counts.push(held);
      start = i + 1;
    }
  }
  if (start < keys.length) counts.push(keys.length - start);
  return counts;
}

/** A piece's body: its items as one JSON array, joined as a run joins them. */
export const pieceBody = (items: readonly string[]): string => `[${items.join(",")}]`;

/** Pieces a build made, by their items' hashes joined (pieceKey): each one's id and size. */
export type PieceIds = Map<string, readonly [id: string, size: number]>;

/**
 * What a rebuild knows of pieces already: the list's item hashes (the manifest's, in item order), the pieces of the
 * build before by those hashes (`known`), and where this build's go (`made`, all of them, for the next build).
 */
export interface PieceIdMemo {
  itemHashes: readonly string[];
  known: PieceIds;
  made: PieceIds;
}

/** A piece's key: its items' hashes in order, hashed. The same key, the same items, the same body. */
const pieceKey = (itemHashes: readonly string[]) => hash("sha1", itemHashes.join(","), "base64url");

/**
 * The pieces of `items` (JSON texts) cut as `counts` says: each one's body hashed once, then let go; with a memo,
 * a piece whose items a build before held in the same order takes its id and size from there (every list of 15,384
 * tools is 16 MB of bodies to join and hash: 30 ms of a price edit's rebuild, for the two or three pieces it changes).
 */
export function piecesOf(items: readonly string[], counts: readonly number[], memo?: PieceIdMemo): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const count of counts) {
    const held = items.slice(at, at + count);
    const key = memo && pieceKey(memo.itemHashes.slice(at, at + count));
    let known = key === undefined ? undefined : memo!.known.get(key);
    if (!known) {
      const body = pieceBody(held);
      known = [hash("sha256", body, "hex"), Buffer.byteLength(body)];
    }
    if (key !== undefined) memo!.made.set(key, known);
    pieces.push({ id: known[0], items: count, size: known[1] });
    at += count;
  }
  return pieces;
}

/** The SHA-256 of a body made of `texts`, without joining them. */
export function sha256OfTexts(texts: Iterable<string>): string {
  const state = createHash("sha256");
  for (const text of texts) state.update(text);
  return state.digest("hex");
}

/** A piece the build before made from the same inputs (its key), as it wrote it: its id, its size, and its file's
 *  bytes (UTF-8), read when asked. */
export type RecallPieces = (key: string) => { id: string; size: number; body: () => Uint8Array } | undefined;

/**
 * The file of each piece, once however many lists hold it: its path names its id, its key is what it is made from
 * (`keyOf(id)`, else its id: the same id, the same bytes), so a rebuild keeps it unread, and its SHA-256 is known (no
 * writer hashes it again). `bodyOf(id)` renders a piece's body when a writer needs it.
 */
export function pieceFiles(
  pieceTemplate: string,
  pieces: Iterable<Piece>,
  bodyOf: (id: string) => string,
  keyOf: (id: string) => string | undefined = () => undefined,
): OutputFile[] {
  const files = new Map<string, OutputFile>();
  for (const { id } of pieces) {
    if (files.has(id)) continue;
    const path = fill(pieceTemplate, { piece: `${id}.json` });
    files.set(
      id,
      lazyFile(path, keyOf(id) ?? `piece ${id}`, () => bodyOf(id), undefined, undefined, id),
    );
  }
  return [...files.values()];
}
