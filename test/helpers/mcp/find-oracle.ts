// What find_software should answer (M5), computed the plain way from the catalog body's tools (in O1 order): every
// filter tested on every tool, the matches sorted by a comparison written from the rule's words, then sliced. No index,
// no typed arrays: the server's find index (scripts/model/find-index.ts) is checked against this.

export interface OracleTool {
  name: string;
  slug: string;
  rating: number | null;
  hasFreePlan: boolean;
  hasMcpServer: boolean;
  hasApi: boolean;
  hasZapier: boolean;
  hasMake: boolean;
  lowestPaidPrice: number | null;
  categories: string[];
}

export interface FindCall {
  category?: string;
  hasMcpServer?: boolean;
  hasApi?: boolean;
  hasZapier?: boolean;
  hasMake?: boolean;
  hasFreePlan?: boolean;
  maxPrice?: number;
  minRating?: number;
  sort?: "name" | "price" | "rating";
  limit?: number;
  offset?: number;
}

export const FLAG_NAMES = ["hasMcpServer", "hasApi", "hasZapier", "hasMake", "hasFreePlan"] as const;

/** The tools (as given) a call answers, and how many match; "unknown category" when the category is none of `categories`. */
export function expectedFind<T extends OracleTool>(
  tools: readonly T[],
  categories: readonly string[],
  call: FindCall,
): { total: number; page: T[]; limit: number; offset: number } | "unknown category" {
  if (call.category !== undefined && !categories.includes(call.category)) return "unknown category";
  const passes = (t: T) =>
    (call.category === undefined || t.categories.includes(call.category)) &&
    FLAG_NAMES.every((flag) => call[flag] === undefined || t[flag] === call[flag]) &&
    (call.maxPrice === undefined ||
      (t.lowestPaidPrice === null ? t.hasFreePlan : t.lowestPaidPrice <= call.maxPrice)) &&
    (call.minRating === undefined || (t.rating !== null && t.rating >= call.minRating));
  // Name order is the order given (O1); each other sort breaks its ties by it.
  const position = new Map(tools.map((t, i) => [t, i]));
  const byName = (a: T, b: T) => position.get(a)! - position.get(b)!;
  const nullsLast = (x: number | null, y: number | null, better: (x: number, y: number) => number) =>
    x === null && y === null ? 0 : x === null ? 1 : y === null ? -1 : better(x, y);
  const sorts = {
    name: byName,
    price: (a: T, b: T) => nullsLast(a.lowestPaidPrice, b.lowestPaidPrice, (x, y) => x - y) || byName(a, b),
    rating: (a: T, b: T) => nullsLast(a.rating, b.rating, (x, y) => y - x) || byName(a, b),
  };
  const matches = tools.filter(passes).sort(sorts[call.sort ?? "name"]);
  const limit = call.limit ?? 20;
  const offset = call.offset ?? 0;
  return { total: matches.length, page: matches.slice(offset, offset + limit), limit, offset };
}

/** A SoftwareSummary's fields, in the contract's order. */
export const SUMMARY_FIELDS = [
  "name",
  "slug",
  "shortDescription",
  "url",
  "websiteUrl",
  "rating",
  "hasFreePlan",
  "hasMcpServer",
  "hasApi",
  "categories",
] as const;

/** The body find_software answers for a call, from the catalog body's items: each summary, then lowestPaidPrice. */
export function expectedFindBody(
  tools: readonly (OracleTool & Record<string, unknown>)[],
  categories: readonly string[],
  call: FindCall,
): string | "unknown category" {
  const found = expectedFind(tools, categories, call);
  if (found === "unknown category") return found;
  const data = found.page.map((t) => ({
    ...Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, t[field]])),
    lowestPaidPrice: t.lowestPaidPrice,
  }));
  return JSON.stringify({ data, meta: { total: found.total, limit: found.limit, offset: found.offset } });
}
