// The find index: what the MCP tool find_software filters and sorts on (M5), and the words several-word search matches
// (S1's words), for every tool in O1 order, in a few bytes a tool. The build writes it as a build record
// (FIND_INDEX_FILE, never served by URL); a host's MCP server reads it once per build and keeps it, and reads the
// summaries of one page of results from the list of every tool at their positions. So no request parses a whole
// catalog body (the export is 84 MB at 103,528 tools; this index about 3.6 MB, and 6.5 MB parsed). Pure, Web APIs only:
// it runs in the Worker.
import { nameWords } from "./search-words.ts";

export const FIND_INDEX_FILE = "find-index.json";
/** Raised when the file's shape changes: a reader refuses an index of another format (built by another version). */
export const FIND_INDEX_FORMAT = 2;

/** What the index holds of a tool: the fields of its summary and detail that find_software filters on. */
export interface FindIndexTool {
  name: string;
  hasMcpServer: boolean;
  hasApi: boolean;
  hasZapier: boolean;
  hasMake: boolean;
  hasFreePlan: boolean;
  lowestPaidPrice: number | null;
  rating: number | null;
  /** its category slugs */
  categories: readonly string[];
}

/** The flags, one bit each, in this order. */
export const FLAGS = ["hasMcpServer", "hasApi", "hasZapier", "hasMake", "hasFreePlan"] as const;
export type Flag = (typeof FLAGS)[number];

/**
 * One tool's row: its FLAGS as bits (1 hasMcpServer, 2 hasApi, …), lowest paid price, rating, the indexes of its
 * categories into the file's `categories`, and the words of its name (S1: folded, split at anything but a-z and 0-9)
 * joined by one space. A row per tool (not a column per field), so the rows can be cut into pieces where the tools'
 * slugs say, as the lists are: one price edit changes one piece of the index, which is all an upload sends.
 */
export type FindRow = [
  flags: number,
  lowestPaidPrice: number | null,
  rating: number | null,
  categories: number[],
  words: string,
];

/** The file: the catalog's category slugs (listed or not, with tools or not), then a row per tool in O1 order. */
export interface FindIndexData {
  format: typeof FIND_INDEX_FORMAT;
  categories: string[];
  tools: FindRow[];
}

/** The file's text before its rows, and after: the rows are joined by `,` between them. */
export const findIndexOpening = (categories: readonly string[]): string =>
  `{"format":${FIND_INDEX_FORMAT},"categories":${JSON.stringify(categories)},"tools":[`;
export const FIND_INDEX_CLOSING = "]}";

/** Each tool's row as JSON text (in the tools' order), for the catalog's category slugs. */
export function findRowTexts(tools: readonly FindIndexTool[], categories: readonly string[]): string[] {
  return findRows(tools, categories).map((row) => JSON.stringify(row));
}

/** The index's text for these tools (in O1 order) and the catalog's category slugs. Deterministic (H6). */
export const findIndexText = (tools: readonly FindIndexTool[], categories: readonly string[]): string =>
  findIndexOpening(categories) + findRowTexts(tools, categories).join(",") + FIND_INDEX_CLOSING;

/** The index for these tools (in O1 order) and the catalog's category slugs, as its text parses. */
export const findIndexData = (tools: readonly FindIndexTool[], categories: readonly string[]): FindIndexData => ({
  format: FIND_INDEX_FORMAT,
  categories: [...categories],
  tools: findRows(tools, categories),
});

function findRows(tools: readonly FindIndexTool[], categories: readonly string[]): FindRow[] {
  const indexOf = new Map(categories.map((slug, i) => [slug, i]));
  return tools.map((t) => [
    FLAGS.reduce((bits, flag, bit) => bits | (t[flag] ? 1 << bit : 0), 0),
    t.lowestPaidPrice,
    t.rating,
    t.categories.map((slug) => {
      const index = indexOf.get(slug);
      if (index === undefined) throw new Error(`find index: tool ${t.name} names category ${slug}, which is not given`);
      return index;
    }),
    nameWords(t.name).join(" "),
  ]);
}

export type FindSort = "name" | "price" | "rating";

/** find_software's filters (M5); an absent one keeps every tool. */
export interface FindFilters {
  category?: string;
  hasMcpServer?: boolean;
  hasApi?: boolean;
  hasZapier?: boolean;
  hasMake?: boolean;
  hasFreePlan?: boolean;
  /** lowestPaidPrice ≤ maxPrice; a tool without a paid price matches only when it has a free plan */
  maxPrice?: number;
  /** rating ≥ minRating; an unrated tool never matches */
  minRating?: number;
}

export interface FindQuery extends FindFilters {
  sort: FindSort;
  limit: number;
  offset: number;
}

/** The tools a query matches: how many, and the positions (in O1 order of every tool) of the page asked for. */
export interface Found {
  total: number;
  positions: number[];
}

/** One build's index, parsed: typed columns, kept for as long as that build answers. */
export class FindIndex {
  readonly count: number;
  readonly categories: readonly string[];
  private readonly categoryIndex: Map<string, number>;
  private readonly flags: Uint8Array;
  /** NaN: no paid price (null) */
  private readonly prices: Float64Array;
  /** NaN: not rated (null) */
  private readonly ratings: Float64Array;
  /** tool i's categories are categoryIndexes[categoryStarts[i] … categoryStarts[i+1]−1] */
  private readonly categoryStarts: Uint32Array;
  private readonly categoryIndexes: Uint16Array;
  private readonly words: readonly string[];
  private byPrice: Uint32Array | undefined;
  private byRating: Uint32Array | undefined;

  constructor(text: FindIndexData) {
    if (text.format !== FIND_INDEX_FORMAT) throw new Error(`${FIND_INDEX_FILE} is of another format`);
    const rows = text.tools;
    const n = rows.length;
    if (text.categories.length > 0xffff) throw new Error(`${FIND_INDEX_FILE}: more than 65,535 categories`);
    this.count = n;
    this.categories = text.categories;
    this.categoryIndex = new Map(text.categories.map((slug, i) => [slug, i]));
    this.flags = new Uint8Array(n);
    this.prices = new Float64Array(n);
    this.ratings = new Float64Array(n);
    this.categoryStarts = new Uint32Array(n + 1);
    const words: string[] = [];
    const categoryIndexes: number[] = [];
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      if (!Array.isArray(row) || row.length !== 5 || !Array.isArray(row[3]))
        throw new Error(`${FIND_INDEX_FILE}: tool ${i}'s row is not [flags, price, rating, categories, words]`);
      const [flags, price, rating, categories, name] = row;
      this.flags[i] = flags;
      this.prices[i] = price ?? Number.NaN;
      this.ratings[i] = rating ?? Number.NaN;
      for (const c of categories) {
        if (!(c >= 0 && c < text.categories.length))
          throw new Error(`${FIND_INDEX_FILE}: tool ${i} names category ${c}, which is not given`);
        categoryIndexes.push(c);
      }
      this.categoryStarts[i + 1] = categoryIndexes.length;
      words.push(name);
    }
    this.categoryIndexes = Uint16Array.from(categoryIndexes);
    this.words = words;
  }

  static parse(json: string): FindIndex {
    return new FindIndex(JSON.parse(json) as FindIndexData);
  }

  hasCategory(slug: string): boolean {
    return this.categoryIndex.has(slug);
  }

  /** Tool i's lowest paid price (D2), null when it has none. */
  lowestPaidPrice(i: number): number | null {
    const p = this.prices[i]!;
    return Number.isNaN(p) ? null : p;
  }

  /** The page of tools a query asks for; undefined when its category is not one of the catalog's. */
  find(query: FindQuery): Found | undefined {
    const category = query.category === undefined ? -1 : this.categoryIndex.get(query.category);
    if (category === undefined) return undefined;
    // Flags: a mask of the flags a filter names, and the bits they must have.
    let mask = 0;
    let want = 0;
    FLAGS.forEach((flag, bit) => {
      const value = query[flag];
      if (value === undefined) return;
      mask |= 1 << bit;
      if (value) want |= 1 << bit;
    });
    const freePlan = 1 << FLAGS.indexOf("hasFreePlan");
    const { maxPrice, minRating } = query;
    const matches = (i: number): boolean => {
      if ((this.flags[i]! & mask) !== want) return false;
      if (maxPrice !== undefined) {
        const price = this.prices[i]!;
        // No paid price: free when it has a free plan, else a quote on request, which no budget can be sure of.
        if (Number.isNaN(price) ? (this.flags[i]! & freePlan) === 0 : price > maxPrice) return false;
      }
      // An unrated tool's NaN fails every comparison: it never matches.
      if (minRating !== undefined && !(this.ratings[i]! >= minRating)) return false;
      if (category >= 0) {
        let found = false;
        for (let k = this.categoryStarts[i]!; k < this.categoryStarts[i + 1]!; k++)
          if (this.categoryIndexes[k] === category) found = true;
        if (!found) return false;
      }
      return true;
    };
    const order = this.order(query.sort);
    const positions: number[] = [];
    let total = 0;
    const end = query.offset + query.limit;
    for (let k = 0; k < this.count; k++) {
      const i = order ? order[k]! : k;
      if (!matches(i)) continue;
      if (total >= query.offset && total < end) positions.push(i);
      total++;
    }
    return { total, positions };
  }

  /** The tools whose name has, for each of `words` (folded: a-z, 0-9), a word starting with it: positions in O1
   *  order (as search-words.ts's toolsWithEveryPrefix over the same names). */
  withEveryPrefix(words: readonly string[]): number[] {
    if (words.length === 0) return [];
    const spaced = words.map((w) => ` ${w}`);
    const out: number[] = [];
    for (let i = 0; i < this.count; i++) {
      const own = this.words[i]!;
      if (words.every((w, k) => own.startsWith(w) || own.includes(spaced[k]!))) out.push(i);
    }
    return out;
  }

  /** The permutation of positions a sort walks (made once, on its first use); null for name order, the index's own. */
  private order(sort: FindSort): Uint32Array | null {
    if (sort === "name") return null;
    // O3 for price (nulls last), highest first for rating (nulls last); ties by position, which is O1.
    const ranked = (values: Float64Array, ascending: boolean) => {
      const order = new Uint32Array(this.count);
      for (let i = 0; i < this.count; i++) order[i] = i;
      return order.sort((a, b) => {
        const x = values[a]!;
        const y = values[b]!;
        if (Number.isNaN(x) || Number.isNaN(y))
          return Number.isNaN(x) === Number.isNaN(y) ? a - b : Number.isNaN(x) ? 1 : -1;
        return x === y ? a - b : ascending ? x - y : y - x;
      });
    };
    if (sort === "price") return (this.byPrice ??= ranked(this.prices, true));
    return (this.byRating ??= ranked(this.ratings, false));
  }
}
