// Every GET /software page: each limit 1–100 × each offset 0..total, unfiltered and per category (Q4, Q5, Q9).
// Pages are not built as strings: a page is the list's pre-encoded items between an envelope prefix and suffix,
// so writers hand the pieces to the kernel (writev) and no page is ever held whole.

import { PAGE_PREFIX, pageSuffix } from "../api/runtime/page-envelope.ts";
import { ALL_FILTER, categoryFilter, MAX_LIMIT } from "../api/runtime/route-table.ts";
import type { Catalog, Tool } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { json } from "./output.ts";
import type { Summaries } from "./software.ts";

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

export function pageLists(catalog: Catalog, summaries: Summaries): PageList[] {
  return listFilters(catalog).map(({ filter, category, tools }) => ({
    filter,
    category,
    items: tools.map((t) => summaries.json.get(t.slug)!),
  }));
}

/** Each list's keys in `pageLists` order: its tools' slugs, where its pieces are cut (render/pieces.ts). */
export const listKeys = (catalog: Catalog): string[][] => listFilters(catalog).map((l) => l.tools.map((t) => t.slug));

/**
 * The check the writer runs for each list it writes (SiteOutput.checkList): the items it names, one by one (each
 * summary once however many lists hold it), and the list's envelope for every limit, at both ends.
 */
export function listChecker(catalog: Catalog, summaries: Summaries): (list: number, items: "all" | number[]) => void {
  const filters = listFilters(catalog);
  return (list, items) => {
    const { filter, category, tools } = filters[list]!;
    for (const i of items === "all" ? tools.keys() : items) summaries.check(tools[i]!.slug);
    for (let limit = 1; limit <= MAX_LIMIT; limit++) {
      for (const offset of new Set([0, tools.length])) {
        assertValid(
          "responses/software-list-response.schema.json",
          { data: [], meta: pageMeta(tools.length, limit, offset, category) },
          `page ${filter} ${limit}/${offset}`,
        );
      }
    }
  };
}

export const pageMeta = (total: number, limit: number, offset: number, category: string | null) => ({
  total,
  limit,
  offset,
  category,
});

const PREFIX = Buffer.from(PAGE_PREFIX);

/**
 * The pages of one list as byte pieces: `pieces(limit, offset)` concatenated is the page body.
 * The items are joined with commas once, so any page's slice of them is one view of that buffer: a page is three
 * pieces (prefix, slice, suffix) whatever its limit, and nothing is copied.
 */
export class PageRenderer {
  private readonly joined: Buffer;
  /** byte offset of item i in `joined`, and of its end */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** `"category":…` as JSON, the same for every page of the list */
  private readonly categoryJson: string;

  constructor(list: PageList) {
    this.joined = Buffer.from(list.items.join(","));
    let at = 0;
    for (const item of list.items) {
      this.starts.push(at);
      at += Buffer.byteLength(item);
      this.ends.push(at);
      at += 1; // the comma
    }
    this.categoryJson = json(list.category);
  }

  get total(): number {
    return this.starts.length;
  }

  /** Byte for byte what json(pageMeta(…)) writes after the items: same keys, same order. */
  private suffixText(limit: number, offset: number): string {
    return pageSuffix(this.total, limit, offset, this.categoryJson);
  }

  private suffix(limit: number, offset: number): Buffer {
    return Buffer.from(this.suffixText(limit, offset));
  }

  pieces(limit: number, offset: number): Buffer[] {
    const end = Math.min(offset + limit, this.total);
    const suffix = this.suffix(limit, offset);
    if (end <= offset) return [PREFIX, suffix];
    return [PREFIX, this.joined.subarray(this.starts[offset], this.ends[end - 1]), suffix];
  }
}

/** Which offsets of one limit: every one, or those listed (ascending). */
export type PageOffsets = "all" | number[];
