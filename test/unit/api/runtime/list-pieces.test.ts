// A list page from its list's pieces (api/runtime/list-pieces.ts): for every cut of a list into pieces, every limit and
// offset, the envelope around the pieces' slices joined by `,` is the page a pages build writes, byte for byte; the
// ranged reads of R2 are one per piece touched, one for pieces laid end to end in one pack; and Static Assets'
// pagePieces (from build-index.json's ListIndex) gives the same slices.
import { describe, expect, it } from "vitest";
import { ListIndex } from "../../../../scripts/api/runtime/build-index.ts";
import { joinSlices, pieceRanges, pieceSlices } from "../../../../scripts/api/runtime/list-pieces.ts";
import { PAGE_PREFIX, pageSuffix } from "../../../../scripts/api/runtime/page-envelope.ts";
import { pagePieces } from "../../../../scripts/hosts/cloudflare/worker/stores.ts";
import { PageRenderer } from "../../../../scripts/render/software-pages.ts";

// Items as the build makes them: compact JSON, some non-ASCII (byte lengths differ from string lengths), a comma and
// a bracket inside a string.
const items = Array.from({ length: 11 }, (_, i) =>
  JSON.stringify({ name: ["Ñandú", "a,b]", "Kumo 雲", "zeta"][i % 4], n: i }),
);
const bytes = (s: string) => Buffer.from(s);
const cuts = [[11], [5, 6], [3, 3, 5], [1, 1, 1, 8], [4, 4, 3]];

/** The pieces' bodies for a cut, and the list's items' lengths per piece. */
function cut(counts: number[]) {
  let at = 0;
  return counts.map((n) => {
    const mine = items.slice(at, (at += n));
    return { body: bytes(`[${mine.join(",")}]`), lengths: mine.map((i) => bytes(i).byteLength) };
  });
}

describe("a page from its list's pieces", () => {
  for (const counts of cuts)
    it(`every limit and offset, pieces of ${counts.join(", ")} items`, () => {
      const pieces = cut(counts);
      const renderer = new PageRenderer({ filter: "x", category: "crm", items: [...items] });
      // one pack, the pieces end to end; and each piece in a pack of its own
      let offset = 7;
      const together = pieces.map((p) => ({
        pack: "a",
        offset: (offset += p.body.byteLength) - p.body.byteLength,
        size: p.body.byteLength,
      }));
      const pack = Buffer.concat([Buffer.alloc(7), ...pieces.map((p) => p.body)]);
      const apart = pieces.map((p, k) => ({ pack: k, offset: 0, size: p.body.byteLength }));
      const list = new ListIndex(
        "x",
        "crm",
        items.map((i) => bytes(i).byteLength),
        counts.map((count, k) => [`p${k}`, count] as const),
      );
      for (let limit = 1; limit <= 12; limit++)
        for (let o = 0; o <= items.length; o++) {
          const expected = Buffer.concat(renderer.pieces(limit, o));
          const slices = pieceSlices(
            pieces.map((p) => p.lengths),
            limit,
            o,
          );
          expect(slices.length).toBeLessThanOrEqual(counts.length);
          const page = (parts: Uint8Array[]) =>
            Buffer.concat([
              bytes(PAGE_PREFIX),
              joinSlices(parts),
              bytes(pageSuffix(items.length, limit, o, JSON.stringify("crm"))),
            ]);
          // each slice from its piece's body
          expect(page(slices.map((s) => pieces[s.piece]!.body.subarray(s.start, s.end))).equals(expected)).toBe(true);
          // R2, one pack: a single read however many pieces the page touches
          const one = pieceRanges(slices, together);
          expect(one.length).toBe(slices.length === 0 ? 0 : 1);
          expect(
            page(one.flatMap((r) => r.parts.map((x) => pack.subarray(r.from + x.start, r.from + x.end)))).equals(
              expected,
            ),
          ).toBe(true);
          // R2, a pack each: a read per piece
          const each = pieceRanges(slices, apart);
          expect(each.length).toBe(slices.length);
          const read = each.flatMap((r) =>
            r.parts.map((x) => pieces[r.pack as number]!.body.subarray(r.from + x.start, r.from + x.end)),
          );
          expect(page(read).equals(expected)).toBe(true);
          // Static Assets: the same slices from the build's index
          expect(pagePieces(list, limit, o).map(({ id, start, end, size }) => [id, start, end, size])).toEqual(
            slices.map((s) => [`p${s.piece}`, s.start, s.end, pieces[s.piece]!.body.byteLength]),
          );
        }
    });
});
