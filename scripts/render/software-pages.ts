// Every GET /software page: each limit 1–100 × each offset 0..total, unfiltered and per category (Q4, Q5, Q9).
import type { Catalog, Tool } from "../model/derive.ts";
import { assertValid } from "./check.ts";
import { json, type OutputFile } from "./output.ts";
import { ALL_FILTER, categoryFilter, fill, layout, MAX_LIMIT } from "./route-table.ts";

export interface ListFilter {
  /** route variable `filter`: "all" or "category/{slug}" */
  filter: string;
  /** meta.category */
  category: string | null;
  tools: Tool[];
}

/** Every filter of the list: unfiltered, then each category (a category with no tools too: Q5 empty page). */
export function listFilters(catalog: Catalog): ListFilter[] {
  return [
    { filter: ALL_FILTER, category: null, tools: catalog.tools },
    ...catalog.categories.map((c) => ({ filter: categoryFilter(c.slug), category: c.slug, tools: c.tools })),
  ];
}

export function* renderSoftwarePages(catalog: Catalog, summaries: Map<string, string>): Generator<OutputFile> {
  const { page } = layout(catalog.site.basePath);
  for (const { filter, category, tools } of listFilters(catalog)) {
    const items = tools.map((t) => summaries.get(t.slug)!);
    const total = items.length;
    for (let limit = 1; limit <= MAX_LIMIT; limit++) {
      for (let offset = 0; offset <= total; offset++) {
        const meta = { total, limit, offset, category };
        // Items were validated one by one; the envelope is validated here with its real meta.
        assertValid("responses/software-list.schema.json", { data: [], meta }, `page ${filter} ${limit}/${offset}`);
        const body = `{"data":[${items.slice(offset, offset + limit).join(",")}],"meta":${json(meta)}}`;
        yield { path: fill(page, { filter, limit, offset }), body };
      }
    }
  }
}
