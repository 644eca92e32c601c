// find_software (M5): which tools fit, in one call: filtered and sorted on the find index (model/find-index.ts), the
// page's summaries read from the API's list of every tool (catalog-index.ts), each with its lowest paid price.
import * as z from "zod";
import { SoftwareDetail, SoftwareSummary } from "../api/contract/response-schemas.ts";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../api/runtime/route-table.ts";
import type { FindFilters, FindSort } from "../model/find-index.ts";
import { BuildChanged, type CatalogIndex } from "./catalog-index.ts";
import { listSoftwareTarget } from "./requests.ts";
import type { ApiAnswer, CatalogSource } from "./source.ts";

export interface FindArgs extends FindFilters {
  sort?: FindSort;
  limit?: number;
  offset?: number;
}

/** A found tool: its summary, then its lowest paid price (US dollars per month; null when it has none). */
export const FoundSoftware = SoftwareSummary.extend({ lowestPaidPrice: SoftwareDetail.shape.lowestPaidPrice });

export const FindSoftwareResponse = z.strictObject({
  data: z.array(FoundSoftware),
  meta: z.strictObject({
    total: z.int().min(0).describe("every tool that matches"),
    limit: z.int().min(1).max(MAX_LIMIT),
    offset: z.int().min(0),
  }),
});

/** The answer to a find_software call: the page asked for, or the API's category_not_found body. */
export function findSoftware(catalog: CatalogIndex, source: CatalogSource, args: FindArgs): Promise<ApiAnswer> {
  const { sort = "name", limit = DEFAULT_LIMIT, offset = 0, ...filters } = args;
  return catalog.use(source, async (table) => {
    const found = table.index.find({ ...filters, sort, limit, offset });
    if (!found) {
      // Not a category of this build: the API's own error body, asked of the API as list_software would ask it.
      const answer = await source.get(listSoftwareTarget({ category: filters.category, limit: 1 }));
      if (answer.status === 200) throw new BuildChanged();
      return answer;
    }
    const summaries = await table.summaries(found.positions);
    const data = summaries.map((summary, k) => ({
      ...summary,
      lowestPaidPrice: table.index.lowestPaidPrice(found.positions[k]!),
    }));
    return { status: 200, body: JSON.stringify({ data, meta: { total: found.total, limit, offset } }) };
  });
}
