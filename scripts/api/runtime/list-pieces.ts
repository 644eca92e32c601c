// A list page from its list's pieces (E2, L1): a piece's body is `[` + its items joined by `,` + `]`, so items
// o…e−1 of a list are, in each piece they touch, one byte range of that piece, and the page's items are those ranges
// joined by `,`. The Worker reads the ranges from R2 (worker/r2-builds.ts) or slices piece files of Static Assets
// (worker/stores.ts). Pieces hold at least 50 items but the last, so a page of at most 100 items touches at most three.
// Web APIs only.

/** The items of one piece a page holds: the piece (its position in the list), and where they lie in its body. */
export interface PieceSlice {
  piece: number;
  /** the first byte of the first item, in the piece's body */
  start: number;
  /** one past the last byte of the last item */
  end: number;
  /** whether the slice runs from the piece's first item to its last (the bytes between two such slices of pieces laid
   *  end to end are `][`) */
  fromFirst: boolean;
  toLast: boolean;
}

/** Items offset … min(offset + limit, total) − 1 of a list whose pieces' items have these lengths, piece by piece. */
export function pieceSlices(pieces: readonly (readonly number[])[], limit: number, offset: number): PieceSlice[] {
  const slices: PieceSlice[] = [];
  let total = 0;
  for (const lengths of pieces) total += lengths.length;
  const end = Math.min(offset + limit, total);
  let first = 0;
  for (let k = 0; k < pieces.length && first < end; k++) {
    const lengths = pieces[k]!;
    const last = first + lengths.length;
    if (last > offset) {
      const a = Math.max(offset, first) - first;
      const b = Math.min(end, last) - first;
      let start = 1;
      for (let i = 0; i < a; i++) start += lengths[i]! + 1;
      let stop = start;
      for (let i = a; i < b; i++) stop += lengths[i]! + (i > a ? 1 : 0);
      slices.push({ piece: k, start, end: stop, fromFirst: a === 0, toLast: b === lengths.length });
    }
    first = last;
  }
  return slices;
}

/** The items of a page: its slices' bytes joined by `,`. */
export function joinSlices(slices: readonly Uint8Array[]): Uint8Array {
  const length = slices.reduce((sum, s) => sum + s.byteLength, 0) + Math.max(0, slices.length - 1);
  const items = new Uint8Array(length);
  let at = 0;
  for (const [i, s] of slices.entries()) {
    if (i > 0) items[at++] = 0x2c; // ","
    items.set(s, at);
    at += s.byteLength;
  }
  return items;
}

/** Where a piece lies: its pack (any name) and offset, and its body's size. */
export interface PiecePlace {
  pack: number | string;
  offset: number;
  size: number;
}

/** One ranged read of a pack: [from, to) and the slices it holds, each [start, end) inside the bytes read. */
export interface PieceRange {
  pack: number | string;
  from: number;
  to: number;
  parts: { start: number; end: number }[];
}

/**
 * The ranged reads a page's slices take: one per slice, but slices of pieces laid end to end in one pack (the first
 * read to its last item, the next from its first) are one read, the `][` between them skipped.
 */
export function pieceRanges(slices: readonly PieceSlice[], places: readonly PiecePlace[]): PieceRange[] {
  const ranges: PieceRange[] = [];
  for (const [i, slice] of slices.entries()) {
    const place = places[slice.piece]!;
    const last = ranges.at(-1);
    const previous = i > 0 ? slices[i - 1]! : undefined;
    const before = previous && places[previous.piece]!;
    if (
      last &&
      before &&
      previous.toLast &&
      slice.fromFirst &&
      before.pack === place.pack &&
      before.offset + before.size === place.offset
    ) {
      last.parts.push({ start: place.offset + slice.start - last.from, end: place.offset + slice.end - last.from });
      last.to = place.offset + slice.end;
      continue;
    }
    const from = place.offset + slice.start;
    ranges.push({
      pack: place.pack,
      from,
      to: place.offset + slice.end,
      parts: [{ start: 0, end: slice.end - slice.start }],
    });
  }
  return ranges;
}
