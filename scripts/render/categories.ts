// GET /categories: listed categories (≥ 2 tools) in O1 order, with derived counts and top tool (O2, D5).
import type { Category } from "../api/response-schemas.ts";
import { layout } from "../api/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { json, type OutputFile } from "./output.ts";

export function renderCategories(catalog: Catalog): OutputFile {
  const data: Category[] = catalog.categories
    .filter((c) => c.listed)
    .map((c) => ({
      name: c.name,
      slug: c.slug,
      toolCount: c.toolCount,
      mcpReadyCount: c.mcpReadyCount,
      topTool: c.topTool,
      bestListUrl: c.bestListUrl,
    }));
  const body = { data, meta: { total: data.length } };
  return {
    path: layout(catalog.site.basePath).categories,
    body: json(body),
    check: () => void assertValid("responses/category-list-response.schema.json", body, "categories"),
  };
}
