// GET /best/{categorySlug}: each category with at least one tool, by price (O3). No tools: no file, so 404 (O4).
import type { RankedTool } from "../api/contract/response-schemas.ts";
import { fill, layout } from "../api/runtime/route-table.ts";
import { sha1 } from "../launcher/file-hashes.cjs";
import type { Catalog } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { lazyJsonFile, type OutputFile } from "./output.ts";

/**
 * A ranking is made from its tools' content files (their names, prices and plans decide the order and every field)
 * and the site's address (url), so those are its key, in ranking order: a price edit renders the rankings of that
 * tool's categories, not every one (at 15,384 tools they are 4 MB of JSON).
 */
export function* renderRankings(catalog: Catalog): Generator<OutputFile> {
  const { best } = layout(catalog.site.basePath);
  const site = JSON.stringify(catalog.site.siteUrl);
  for (const c of catalog.categories) {
    if (c.ranking.length === 0) continue;
    const sources = c.ranking.map((t) => t.source);
    const key = sources.every((s) => s !== undefined) ? `best ${sha1(`${site} ${sources.join(",")}`)}` : undefined;
    yield lazyJsonFile(
      fill(best, { categorySlug: c.slug }),
      key,
      () => {
        const data: RankedTool[] = c.ranking.map((t) => ({
          name: t.name,
          slug: t.slug,
          url: t.url,
          lowestPrice: t.lowestPaidPrice,
          hasFreePlan: t.hasFreePlan,
        }));
        return { data, meta: { category: c.slug, total: data.length, ranking: "price-ascending" as const } };
      },
      (body) => void assertValid("responses/best-in-category-response.schema.json", body, `best ${c.slug}`),
      `${catalog.site.basePath}/best/${c.slug}`,
    );
  }
}
