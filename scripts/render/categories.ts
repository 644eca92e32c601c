// GET /categories: listed categories (≥ 2 tools) in O1 order, with derived counts and top tool (O2, D5).
import type { Category } from "../api/contract/response-schemas.ts";
import type { RouteLayout } from "../api/runtime/route-table.ts";
import type { Catalog, CategoryEntry } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { json, type OutputFile } from "./output.ts";

/** A category as bodies show it, fields in the contract's order (H5). */
export const toCategory = (c: CategoryEntry): Category => ({
  name: c.name,
  slug: c.slug,
  toolCount: c.toolCount,
  mcpReadyCount: c.mcpReadyCount,
  topTool: c.topTool,
  bestListUrl: c.bestListUrl,
});

export function renderCategories(catalog: Catalog, paths: RouteLayout): OutputFile {
  const data = catalog.categories.filter((c) => c.listed).map(toCategory);
  const body = { data, meta: { total: data.length } };
  return {
    path: paths.categories,
    target: `${catalog.site.basePath}/categories`,
    body: json(body),
    check: () => void assertValid("responses/category-list-response.schema.json", body, "categories"),
  };
}
