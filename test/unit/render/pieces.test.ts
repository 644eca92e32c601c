// Pieces (E2): a cut depends only on the key it follows and the distance from the cut before, so an edit changes the
// piece holding it and an insert the piece it lands in, never the pieces after it.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CATALOG_PIECES,
  cutPieces,
  keyHash,
  LIST_PIECES,
  type PieceBounds,
  type PieceIdMemo,
  pieceBody,
  piecesOf,
} from "../../../scripts/render/pieces.ts";

const slugs = (n: number, prefix = "tool") => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
/** The items at each cut, as [first key, last key] of each piece. */
const pieceKeys = (keys: string[], bounds: PieceBounds) => {
  let at = 0;
  return cutPieces(keys, bounds).map((count) => {
    const piece = [keys[at]!, keys[at + count - 1]!];
    at += count;
    return piece.join("…");
  });
};
/** Items as a list holds them: one JSON text a key. */
const itemsOf = (keys: string[], price = (_key: string) => 10) =>
  keys.map((k) => JSON.stringify({ name: k, slug: k, price: price(k) }));

describe("cutPieces", () => {
  it("cuts after an item whose key's hash is 0 modulo the spread, once a piece holds the minimum; never past the maximum", () => {
    const keys = slugs(10_000);
    const counts = cutPieces(keys, LIST_PIECES);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(keys.length);
    let at = 0;
    for (const [k, count] of counts.entries()) {
      const last = k === counts.length - 1;
      if (!last) expect(count).toBeGreaterThanOrEqual(LIST_PIECES.min);
      expect(count).toBeLessThanOrEqual(LIST_PIECES.max);
      const end = keys[at + count - 1]!;
      if (!last && count < LIST_PIECES.max) expect(keyHash(end) % LIST_PIECES.spread).toBe(0);
      // no earlier item of the piece past the minimum would have ended it
      for (let i = at + LIST_PIECES.min - 1; i < at + count - 1; i++)
        expect(keyHash(keys[i]!) % LIST_PIECES.spread).not.toBe(0);
      at += count;
    }
    // about min + spread items a piece
    const mean = keys.length / counts.length;
    expect(mean).toBeGreaterThan(LIST_PIECES.min + LIST_PIECES.spread / 2);
    expect(mean).toBeLessThan(LIST_PIECES.min + LIST_PIECES.spread * 2);
  });

  it("the hash of a key is the first four bytes of its SHA-256, big-endian", () => {
    for (const key of ["acme", "zeta-crm", "ñandú"])
      expect(keyHash(key)).toBe(createHash("sha256").update(key).digest().readUInt32BE(0));
  });

  it("no items, no piece; fewer than the minimum, one piece", () => {
    expect(cutPieces([], LIST_PIECES)).toEqual([]);
    expect(cutPieces(slugs(7), LIST_PIECES)).toEqual([7]);
  });

  it("a cut depends only on the keys near it: the same keys after a different beginning are cut the same way", () => {
    const tail = slugs(3_000, "tail");
    for (const bounds of [LIST_PIECES, CATALOG_PIECES]) {
      const a = pieceKeys([...slugs(500, "a"), ...tail], bounds);
      const b = pieceKeys([...slugs(777, "b"), ...tail], bounds);
      // once both have cut inside the tail, every later piece is the same
      const common = a.filter((p) => b.includes(p));
      expect(common.length).toBeGreaterThan(a.length / 2);
      expect(a.slice(a.indexOf(common[0]!))).toEqual(b.slice(b.indexOf(common[0]!)));
    }
  });
});

describe("piecesOf", () => {
  const keys = slugs(5_000);
  const bounds = LIST_PIECES;
  const idsOf = (items: string[], k: string[]) => piecesOf(items, cutPieces(k, bounds)).map((p) => p.id);

  it("a piece's body is its items as one JSON array, its id that body's SHA-256, its size its bytes", () => {
    const items = itemsOf(keys.slice(0, 300));
    const pieces = piecesOf(items, cutPieces(keys.slice(0, 300), bounds));
    let at = 0;
    for (const piece of pieces) {
      const body = pieceBody(items.slice(at, at + piece.items));
      expect(JSON.parse(body)).toHaveLength(piece.items);
      expect(piece.id).toBe(createHash("sha256").update(body).digest("hex"));
      expect(piece.size).toBe(Buffer.byteLength(body));
      at += piece.items;
    }
    // the pieces' bodies without their brackets, joined by commas, are the list's run
    let joined = "";
    at = 0;
    for (const piece of pieces) {
      joined += (at === 0 ? "" : ",") + pieceBody(items.slice(at, at + piece.items)).slice(1, -1);
      at += piece.items;
    }
    expect(joined).toBe(items.join(","));
  });

  it("with a memo, an unchanged piece takes the id the build before made; a changed one is hashed; all are kept", () => {
    const hashOf = (item: string) => createHash("sha1").update(item).digest("base64url");
    const items = itemsOf(keys);
    const counts = cutPieces(keys, bounds);
    const first = { itemHashes: items.map(hashOf), known: new Map(), made: new Map() } satisfies PieceIdMemo;
    expect(piecesOf(items, counts, first)).toEqual(piecesOf(items, counts));
    expect(first.made.size).toBe(counts.length);

    const edited = itemsOf(keys, (k) => (k === keys[2_345] ? 11 : 10));
    // Every id the memo holds is marked, so a piece taken from it shows; the edited piece is hashed from its body.
    const known = new Map([...first.made].map(([key, [id, size]]) => [key, [`memo:${id}`, size] as const]));
    const second = { itemHashes: edited.map(hashOf), known, made: new Map() } satisfies PieceIdMemo;
    const pieces = piecesOf(edited, counts, second);
    const fresh = piecesOf(edited, counts);
    expect(pieces.filter((p) => !p.id.startsWith("memo:")).map((p) => p.id)).toEqual(
      fresh.filter((p, i) => p.id !== piecesOf(items, counts)[i]!.id).map((p) => p.id),
    );
    expect(pieces.map((p) => p.id.replace(/^memo:/, ""))).toEqual(fresh.map((p) => p.id));
    expect(second.made.size).toBe(counts.length);
  });

  it("an edit to one item (a price) changes exactly the piece holding it", () => {
    const before = idsOf(itemsOf(keys), keys);
    const edited = keys[2_345]!;
    const after = idsOf(
      itemsOf(keys, (k) => (k === edited ? 11 : 10)),
      keys,
    );
    expect(after).toHaveLength(before.length);
    expect(after.filter((id, i) => id !== before[i])).toHaveLength(1);
  });

  it("an inserted item changes the piece it lands in (at most splitting it in two), never the pieces after it", () => {
    const before = idsOf(itemsOf(keys), keys);
    for (const [at, key] of [
      [2_500, "inserted-in-the-middle"],
      [0, "inserted-first"],
      [keys.length, "inserted-last"],
    ] as const) {
      const inserted = [...keys.slice(0, at), key, ...keys.slice(at)];
      const after = idsOf(itemsOf(inserted), inserted);
      const added = after.filter((id) => !before.includes(id));
      const gone = before.filter((id) => !after.includes(id));
      expect(gone, key).toHaveLength(1);
      expect(added.length, key).toBeGreaterThanOrEqual(1);
      expect(added.length, key).toBeLessThanOrEqual(2);
    }
  });

  it("a removed item changes the piece it was in, or merges it with the next", () => {
    const before = idsOf(itemsOf(keys), keys);
    const removed = keys.filter((_, i) => i !== 1_234);
    const after = idsOf(itemsOf(removed), removed);
    expect(after.filter((id) => !before.includes(id)).length).toBe(1);
    expect(before.filter((id) => !after.includes(id)).length).toBeLessThanOrEqual(2);
  });
});
