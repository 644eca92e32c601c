// GET /best/{categorySlug}: each category with at least one tool, by price (O3). No tools: no file, so 404 (O4).
import type { RankedTool } from "../api/contract/response-schemas.ts";
import { fill, type RouteLayout } from "../api/runtime/route-table.ts";
import type { Catalog, Tool } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { RANKED_TOOL_FIELDS } from "../schemas/field-lists.ts";
import { json, type OutputFile } from "./output.ts";
import { fieldPicker } from "./pick-fields.ts";

/** A tool as a ranking shows it, fields in the contract's order (H5): its lowest price is its lowest paid one (D2). */
const toRankedTool = fieldPicker<Tool, RankedTool>(RANKED_TOOL_FIELDS, { lowestPrice: (t) => t.lowestPaidPrice });

export function* renderRankings(catalog: Catalog, { best }: RouteLayout): Generator<OutputFile> {
  for (const c of catalog.categories) {
    if (c.ranking.length === 0) continue;
    const data = c.ranking.map(toRankedTool);
    const body = { data, meta: { category: c.slug, total: data.length, ranking: "price-ascending" as const } };
    yield {
      path: fill(best, { categorySlug: c.slug }),
      target: `${catalog.site.basePath}/best/${c.slug}`,
      body: json(body),
      check: () => void assertValid("responses/best-in-category-response.schema.json", body, `best ${c.slug}`),
    };
  }
}
