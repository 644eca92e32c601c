// The catalog body, GET /export/catalog.json (E1; the API calls it the export): the whole catalog in one body, every
// tool (O1) with its categories, every category.
import type { ExportResponse } from "../api/contract/response-schemas.ts";
import type { RouteLayout } from "../api/runtime/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { toCategory } from "./categories.ts";
import { json, type OutputFile, piecedFile } from "./output.ts";
import { type RenderedDetails, toCatalogBodyItem } from "./software.ts";

/** Items joined into a piece of about this many characters before it is written (write-in-pieces.ts). */
const PIECE_CHARS = 64 * 1024;

/**
 * The catalog body's check validates its envelope and categories whole, and the items of the tools whose detail this
 * build renders (`details`): an item is its tool's detail and categories, which the detail's key names, so every
 * other item is one an earlier build of the same code checked. The detail files come before the catalog body in a
 * build's files.
 *
 * The body is made in pieces, a few dozen items each, the same bytes as the JSON of the whole response
 * ({"data":{"software":[…],"categories":[…]},"meta":{…}}): it is never held whole.
 */
export function renderCatalogBody(catalog: Catalog, details: RenderedDetails, paths: RouteLayout): OutputFile {
  const categories = () => catalog.categories.map(toCategory);
  const meta: ExportResponse["meta"] = {
    softwareCount: catalog.tools.length,
    categoryCount: catalog.categories.length,
  };
  function* pieces(): Generator<string> {
    let piece = `{"data":{"software":[`;
    for (let i = 0; i < catalog.tools.length; i++) {
      piece += (i === 0 ? "" : ",") + json(toCatalogBodyItem(catalog.tools[i]!));
      if (piece.length < PIECE_CHARS) continue;
      yield piece;
      piece = "";
    }
    yield `${piece}],"categories":${json(categories())}},"meta":${json(meta)}}`;
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
  return piecedFile(paths.export, pieces, check, `${catalog.site.basePath}/export/catalog.json`);
}
