// The catalog body, GET /export/catalog.json (E1; the API calls it the export): the whole catalog in one body, every
// tool (O1) with its categories, every category. Its items are cut into pieces (render/pieces.ts, E2): the body is
// its opening text, the pieces' items joined by `,`, and its closing text, and the hash tree names those parts, so a
// mirror that holds the pieces rebuilds the body byte for byte.
import type { ExportResponse } from "../api/contract/response-schemas.ts";
import type { RouteLayout } from "../api/runtime/route-table.ts";
import { sha1 } from "../launcher/file-hashes.cjs";
import type { Catalog } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { toCategory } from "./categories.ts";
import { type BodyText, joinTexts, json, type OutputFile } from "./output.ts";
import { CATALOG_PIECES, cutPieces, keyHash, type Piece, type RecallPieces, sha256OfTexts } from "./pieces.ts";
import { type RenderedDetails, toCatalogBodyItem } from "./software.ts";

/** One part of a body made of pieces: a text as it is, or pieces' items joined by `,` (the hash tree names these). */
export type BodyPart = { text: string } | { pieces: Piece[] };

/** The catalog body's file, made in pieces (OutputFile.pieces), with its parts for the hash tree. */
export interface CatalogBodyFile extends OutputFile {
  pieces: () => Iterable<BodyText>;
  check: () => void;
  /** the body's parts: its opening text, its pieces, its closing text (makes every item once, then remembers them) */
  parts: () => BodyPart[];
  /** the body of one of its pieces, by id (undefined for any other id) */
  pieceBody: (id: string) => string | undefined;
  /** the key of one of its pieces, by id: what its items are made from, when known (else its id names it) */
  pieceKey: (id: string) => string | undefined;
  /** the pieces the build before made, by key: a piece whose key is there is read, not made (before its first use) */
  recallFrom: (previous: RecallPieces) => void;
}

/**
 * The catalog body's check validates its envelope and categories whole, and the items of the tools whose detail this
 * build renders (`details`): an item is its tool's detail and categories, which the detail's key names, so every
 * other item is one an earlier build of the same code checked. The detail files come before the catalog body in a
 * build's files.
 *
 * Its items are made once, a piece at a time, each piece's items joined as one text (they are the pieces' bodies
 * too); the body itself is never held whole: the writer writes it text by text. A piece is keyed by what its items
 * are made from (each tool's content file, categories and the site's address, as its detail is): a rebuild reads
 * the pieces the build before made from the same (one price edit: all but one) instead of making 15,000 items.
 */
export function renderCatalogBody(
  catalog: Catalog,
  details: RenderedDetails,
  paths: RouteLayout,
  hashOf: (key: string) => number = keyHash,
): CatalogBodyFile {
  const categories = () => catalog.categories.map(toCategory);
  const meta: ExportResponse["meta"] = {
    softwareCount: catalog.tools.length,
    categoryCount: catalog.categories.length,
  };
  const opening = `{"data":{"software":[`;
  const closing = () => `],"categories":${json(categories())}},"meta":${json(meta)}}`;
  const site = JSON.stringify(catalog.site.siteUrl);
  let recall: RecallPieces | undefined;
  // A piece's items as one text: made here, or the bytes of the piece the build before wrote, brackets cut off (a
  // rebuild writes them on undecoded: the body's other 15,000 items are never strings).
  let made: { texts: BodyText[]; pieces: Piece[]; byId: Map<string, number>; keys: (string | undefined)[] } | undefined;
  const make = () => {
    if (made) return made;
    const counts = cutPieces(
      catalog.tools.map((t) => t.slug),
      CATALOG_PIECES,
      hashOf,
    );
    const texts: BodyText[] = [];
    const pieces: Piece[] = [];
    const keys: (string | undefined)[] = [];
    let at = 0;
    for (const count of counts) {
      const tools = catalog.tools.slice(at, at + count);
      at += count;
      // What the piece's items are made from (a detail's key, renderSoftwareDetails), when every tool has a source.
      const key = tools.every((t) => t.source !== undefined)
        ? `catalog-piece ${sha1(`${site}\n${tools.map((t) => `${t.source} ${t.categorySlugs.join(",")}`).join("\n")}`)}`
        : undefined;
      const before = key === undefined ? undefined : recall?.(key);
      if (before) {
        const bytes = before.body();
        texts.push(bytes.subarray(1, bytes.length - 1));
        pieces.push({ id: before.id, items: count, size: before.size });
      } else {
        let text = "";
        for (let i = 0; i < tools.length; i++) text += (i === 0 ? "" : ",") + json(toCatalogBodyItem(tools[i]!));
        texts.push(text);
        pieces.push({ id: sha256OfTexts(["[", text, "]"]), items: count, size: Buffer.byteLength(text) + 2 });
      }
      keys.push(key);
    }
    made = { texts, pieces, byId: new Map(pieces.map((p, k) => [p.id, k])), keys };
    return made;
  };
  function* bodyTexts(): Generator<BodyText> {
    const { texts } = make();
    // Each text after the first opens an item (with its comma) or closes the array; bytes go on as they are.
    for (let k = 0; k < texts.length; k++) {
      const lead = k === 0 ? opening : ",";
      const text = texts[k]!;
      if (typeof text === "string") yield lead + text;
      else yield* [lead, text];
    }
    if (texts.length === 0) yield opening;
    yield closing();
  }
  const check = () => {
    const envelope: ExportResponse = { data: { software: [], categories: categories() }, meta };
    assertValid("responses/export-response.schema.json", envelope, "catalog body");
    for (const tool of catalog.tools)
      if (details.rendered(tool.slug))
        assertValid(
          "items/exported-software.schema.json",
          toCatalogBodyItem(tool),
          `catalog body item of ${tool.slug}`,
        );
  };
  return {
    path: paths.export,
    target: `${catalog.site.basePath}/export/catalog.json`,
    get body() {
      return joinTexts(bodyTexts());
    },
    pieces: bodyTexts,
    check,
    parts: () => [{ text: opening }, { pieces: make().pieces }, { text: closing() }],
    pieceBody: (id) => {
      const k = make().byId.get(id);
      return k === undefined ? undefined : `[${joinTexts([made!.texts[k]!])}]`;
    },
    pieceKey: (id) => {
      const k = make().byId.get(id);
      return k === undefined ? undefined : made!.keys[k];
    },
    recallFrom: (previous) => {
      recall = previous;
    },
  };
}
