// Every GET /software page: each limit 1–100 × each offset 0..total, unfiltered and per category (Q4, Q5, Q9).
// Pages are not built as strings: a page is the list's pre-encoded items between an envelope prefix and suffix,
// so writers hand the pieces to the kernel (writev) and no page is ever held whole.
import type { Catalog, Tool } from "../model/derive.ts";
import { assertValid } from "./check.ts";
import { json } from "./output.ts";
import { ALL_FILTER, categoryFilter, MAX_LIMIT } from "./route-table.ts";

/** One list of GET /software: its route variable `filter`, meta.category, and its items' JSON in O1 order. */
export interface PageList {
  filter: string;
  category: string | null;
  items: string[];
}

/** Every filter of the list: unfiltered, then each category (a category with no tools too: Q5 empty page). */
export function listFilters(catalog: Catalog): { filter: string; category: string | null; tools: Tool[] }[] {
  return [
    { filter: ALL_FILTER, category: null, tools: catalog.tools },
    ...catalog.categories.map((c) => ({ filter: categoryFilter(c.slug), category: c.slug, tools: c.tools })),
  ];
}

export function pageLists(catalog: Catalog, summaries: Map<string, string>): PageList[] {
  const lists = listFilters(catalog).map(({ filter, category, tools }) => ({ filter, category, items: tools.map((t) => summaries.get(t.slug)!) }));
  // Items were validated one by one; each list's envelope is validated here for every limit, at both ends.
  for (const { filter, category, items } of lists) {
    for (let limit = 1; limit <= MAX_LIMIT; limit++) {
      for (const offset of new Set([0, items.length])) {
        assertValid("responses/software-list.schema.json", { data: [], meta: pageMeta(items.length, limit, offset, category) }, `page ${filter} ${limit}/${offset}`);
      }
    }
  }
  return lists;
}

export const pageMeta = (total: number, limit: number, offset: number, category: string | null) => ({ total, limit, offset, category });

const PREFIX = Buffer.from('{"data":[');
const COMMA = Buffer.from(",");

/** The pages of one list as byte pieces: `pieces(limit, offset)` concatenated is the page body. */
export class PageRenderer {
  private readonly items: Buffer[];

  constructor(private readonly list: PageList) {
    this.items = list.items.map((item) => Buffer.from(item));
  }

  get total(): number {
    return this.items.length;
  }

  pieces(limit: number, offset: number): Buffer[] {
    const out: Buffer[] = [PREFIX];
    const end = Math.min(offset + limit, this.items.length);
    for (let i = offset; i < end; i++) {
      if (i > offset) out.push(COMMA);
      out.push(this.items[i]!);
    }
    out.push(Buffer.from(`],"meta":${json(pageMeta(this.items.length, limit, offset, this.list.category))}}`));
    return out;
  }
}
