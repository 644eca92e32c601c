// GET /categories: listed categories (≥ 2 tools) in O1 order, with derived counts and top tool (O2, D5).
import type { Category } from "../api/contract/response-schemas.ts";
import type { RouteLayout } from "../api/runtime/route-table.ts";
import type { Catalog, CategoryEntry } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { CATEGORY_FIELDS } from "../schemas/field-lists.ts";
import { json, type OutputFile } from "./output.ts";
import { fieldPicker } from "./pick-fields.ts";

/** A category as bodies show it, fields in the contract's order (H5). */
export const toCategory = fieldPicker<CategoryEntry, Category>(CATEGORY_FIELDS, {});

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
