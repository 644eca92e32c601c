// GET /export/catalog.json (E1): the whole catalog in one body, every tool (O1) with its categories, every category.
import type { ExportResponse } from "../api/contract/response-schemas.ts";
import { layout } from "../api/runtime/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { toCategory } from "./categories.ts";
import { lazyJsonFile, type OutputFile } from "./output.ts";
import { type RenderedDetails, toExported } from "./tools.ts";

/**
 * The export's check validates its envelope and categories whole, and the items of the tools whose detail this build
 * renders (`details`): an item is its tool's detail and categories, which the detail's key names, so every other item
 * is one an earlier build of the same code checked. The tool files come before the export in a build's files.
 */
export function renderExport(catalog: Catalog, details: RenderedDetails): OutputFile {
  const made = (): ExportResponse => ({
    data: { software: catalog.tools.map(toExported), categories: catalog.categories.map(toCategory) },
    meta: { softwareCount: catalog.tools.length, categoryCount: catalog.categories.length },
  });
  const check = (body: ExportResponse) => {
    const envelope = { ...body, data: { ...body.data, software: [] } };
    assertValid("responses/export-response.schema.json", envelope, "export");
    body.data.software.forEach((item, i) => {
      if (details.rendered(catalog.tools[i]!.slug))
        assertValid("items/exported-software.schema.json", item, `export of ${item.slug}`);
    });
  };
  const { export: path } = layout(catalog.site.basePath);
  return lazyJsonFile(path, undefined, made, check, `${catalog.site.basePath}/export/catalog.json`);
}
