// GET /best/{categorySlug}: each category with at least one tool, by price (O3). No tools: no file, so 404 (O4).
import type { RankedTool } from "../api/contract/response-schemas.ts";
import { fill, type RouteLayout } from "../api/runtime/route-table.ts";
import { sha1 } from "../launcher/file-hashes.cjs";
import type { Catalog, Tool } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { RANKED_TOOL_FIELDS } from "../schemas/field-lists.ts";
import { lazyJsonFile, type OutputFile } from "./output.ts";
import { fieldPicker } from "./pick-fields.ts";
import type { RenderedDetails } from "./software.ts";

/** A tool as a ranking shows it, fields in the contract's order (H5): its lowest price is its lowest paid one (D2). */
const toRankedTool = fieldPicker<Tool, RankedTool>(RANKED_TOOL_FIELDS, { lowestPrice: (t) => t.lowestPaidPrice });

/**
 * A ranking is made from its tools' content files (their names, prices and plans decide the order and every field)
 * and the site's address (url), so those are its key, in ranking order: a price edit renders the rankings of that
 * tool's categories, not every one (at 15,384 tools they are 4 MB of JSON).
 *
 * A ranking's check validates its envelope whole and the items of the tools whose detail this build renders
 * (`details`, as the catalog body's check does): an item is made from its tool's content file and the site's address,
 * which the detail's key names, so every other item is one an earlier build of the same code checked (a price edit
 * checks one item of a 4,000-tool ranking, not 4,000). Without `details` every item is checked. The detail files
 * come before the rankings in a build's files.
 */
export function* renderRankings(
  catalog: Catalog,
  { best }: RouteLayout,
  details?: RenderedDetails,
): Generator<OutputFile> {
  const site = JSON.stringify(catalog.site.siteUrl);
  for (const c of catalog.categories) {
    if (c.ranking.length === 0) continue;
    const sources = c.ranking.map((t) => t.source);
    const key = sources.every((s) => s !== undefined) ? `best ${sha1(`${site} ${sources.join(",")}`)}` : undefined;
    yield lazyJsonFile(
      fill(best, { categorySlug: c.slug }),
      key,
      () => {
        const data = c.ranking.map(toRankedTool);
        return { data, meta: { category: c.slug, total: data.length, ranking: "price-ascending" as const } };
      },
      (body) => {
        if (!details)
          return void assertValid("responses/best-in-category-response.schema.json", body, `best ${c.slug}`);
        assertValid("responses/best-in-category-response.schema.json", { ...body, data: [] }, `best ${c.slug}`);
        for (const item of body.data)
          if (details.rendered(item.slug))
            assertValid("items/ranked-tool.schema.json", item, `best ${c.slug} item ${item.slug}`);
      },
      `${catalog.site.basePath}/best/${c.slug}`,
    );
  }
}
