// GET /export/catalog.json (E1): the whole catalog in one body, every tool (O1) with its categories, every category.
import type { ExportResponse } from "../api/contract/response-schemas.ts";
import { layout } from "../api/runtime/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { toCategory } from "./categories.ts";
import { lazyJsonFile, type OutputFile } from "./output.ts";
import { toDetail } from "./tools.ts";

export function renderExport(catalog: Catalog): OutputFile {
  const file = lazyJsonFile(
    layout(catalog.site.basePath).export,
    undefined,
    (): ExportResponse => ({
      data: {
        software: catalog.tools.map((t) => ({ ...toDetail(t), categories: t.categorySlugs })),
        categories: catalog.categories.map(toCategory),
      },
      meta: { softwareCount: catalog.tools.length, categoryCount: catalog.categories.length },
    }),
    (body) => void assertValid("responses/export-response.schema.json", body, "export"),
  );
  return Object.assign(file, { target: `${catalog.site.basePath}/export/catalog.json` });
}
