// The find index (model/find-index.ts) as build records: what find_software and several-word search read on the
// hosts that answer MCP, never served by URL. Written whole (FIND_INDEX_FILE, what a dist/ reader reads), and in parts
// for the R2 upload: its rows cut into pieces where the tools' slugs say (as the lists are, render/pieces.ts), each
// piece a file of FIND_PIECES_DIR, and FIND_INDEX_PARTS_FILE naming the parts (its opening text, its pieces, its
// closing text, as the hash tree names the export's). So one price edit changes one piece, and the upload sends that.
// The rows are made for the tools whose files changed (render/tool-texts.ts; their pieces are cut from them); the file
// and its parts are keyed by the opening text and the pieces' ids, which name their bytes, so a rebuild that changes
// no row writes neither.
import { sha1 } from "../launcher/file-hashes.cjs";
import type { Catalog, Tool } from "../model/derive.ts";
import { FIND_INDEX_CLOSING, FIND_INDEX_FILE, type FindIndexTool, findIndexOpening } from "../model/find-index.ts";
import { lazyFile, type OutputFile } from "./output.ts";
import { cutPieces, LIST_PIECES, pieceBody, pieceFiles, piecesOf } from "./pieces.ts";

/** Where the index's parts are named, and where its pieces lie (`<id>.json`, the SHA-256 of the piece, hex). */
export const FIND_INDEX_PARTS_FILE = "find-index.parts.json";
export const FIND_PIECES_DIR = "find-index";
const PIECE_TEMPLATE = `${FIND_PIECES_DIR}/{piece}`;

/** FIND_INDEX_PARTS_FILE's text: `{"parts": [{"text": T}, {"pieces": [[id, items, size], …]}, {"text": T}]}`. */
export interface FindIndexParts {
  parts: ({ text: string } | { pieces: [id: string, items: number, size: number][] })[];
}

/** What the find index holds of a tool. */
export const findIndexToolOf = (t: Tool): FindIndexTool => ({
  name: t.name,
  hasMcpServer: t.hasMcpServer,
  hasApi: t.hasApi,
  hasZapier: t.hasZapier,
  hasMake: t.hasMake,
  hasFreePlan: t.hasFreePlan,
  lowestPaidPrice: t.lowestPaidPrice,
  rating: t.rating,
  categories: t.categorySlugs,
});

/** `rows`: each tool's row, in catalog order (render/tool-texts.ts makes them, or recalls them). */
export function renderFindIndex(
  catalog: Catalog,
  hashOf: (key: string) => number,
  rows: readonly string[],
): OutputFile[] {
  const slugs = catalog.categories.map((c) => c.slug);
  const pieces = piecesOf(
    rows,
    cutPieces(
      catalog.tools.map((t) => t.slug),
      LIST_PIECES,
      hashOf,
    ),
  );
  const starts = new Map<string, [start: number, items: number]>();
  let at = 0;
  for (const piece of pieces) {
    if (!starts.has(piece.id)) starts.set(piece.id, [at, piece.items]);
    at += piece.items;
  }
  const opening = findIndexOpening(slugs);
  const key = `find ${sha1(`${opening}\n${pieces.map((p) => p.id).join(",")}`)}`;
  const parts: FindIndexParts = {
    parts: [{ text: opening }, { pieces: pieces.map((p) => [p.id, p.items, p.size]) }, { text: FIND_INDEX_CLOSING }],
  };
  return [
    lazyFile(FIND_INDEX_FILE, key, () => opening + rows.join(",") + FIND_INDEX_CLOSING),
    lazyFile(FIND_INDEX_PARTS_FILE, `parts ${key}`, () => `${JSON.stringify(parts)}\n`),
    ...pieceFiles(PIECE_TEMPLATE, pieces, (id) => {
      const [start, items] = starts.get(id)!;
      return pieceBody(rows.slice(start, start + items));
    }),
  ];
}
