// M5: the find index (what find_software filters and sorts on) against the plain oracle of test/helpers/mcp, over
// generated tools with every edge the rule names: no paid price with and without a free plan, unrated tools, equal
// prices and ratings (ties by name order), a category with no tool, an unknown one. Every filter alone, every sort,
// seeded combinations, paging at the edges; and its several-word match against search-words.ts's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FIND_INDEX_FORMAT, FindIndex, findIndexText } from "../../../scripts/model/find-index.ts";
import { toolsWithEveryPrefix } from "../../../scripts/model/search-words.ts";
import { expectedFind, type FindCall, FLAG_NAMES, type OracleTool } from "../../helpers/mcp/find-oracle.ts";

const CATEGORIES = ["crm", "email", "empty", "seo", "social"];
const PRICES = [null, null, 5, 9.99, 19, 19, 29, 100.5];
const RATINGS = [null, 0, 3.5, 4, 4, 4.8, 5];
const NAME_PIECES = ["Mail", "mäil", "Alpha", "crm", "Sparrow", "SMS", "Zeta", "é", "-", " ", "2", "Pro", "pro"];

const toolArbitrary = fc.record({
  name: fc.array(fc.constantFrom(...NAME_PIECES), { minLength: 1, maxLength: 4 }).map((p) => p.join("")),
  rating: fc.constantFrom(...RATINGS),
  hasFreePlan: fc.boolean(),
  hasMcpServer: fc.boolean(),
  hasApi: fc.boolean(),
  hasZapier: fc.boolean(),
  hasMake: fc.boolean(),
  lowestPaidPrice: fc.constantFrom(...PRICES),
  // "empty" is never given to a tool: a known category with no tool
  categories: fc.subarray(CATEGORIES.filter((c) => c !== "empty")),
});

const tools: OracleTool[] = fc
  .sample(toolArbitrary, { seed: 49, numRuns: 160 })
  .map((t, i) => ({ ...t, slug: `tool-${i}` }));
const index = FindIndex.parse(findIndexText(tools, CATEGORIES));

/** What the index answers for a call, as the oracle's shape (the tools at its positions). */
function found(call: FindCall) {
  const limit = call.limit ?? 20;
  const offset = call.offset ?? 0;
  const got = index.find({ ...call, sort: call.sort ?? "name", limit, offset });
  if (!got) return "unknown category";
  return { total: got.total, page: got.positions.map((p) => tools[p]!), limit, offset };
}

const SORTS = ["name", "price", "rating"] as const;

const expectSame = (call: FindCall) =>
  expect(found(call), JSON.stringify(call)).toEqual(expectedFind(tools, CATEGORIES, call));

describe("M5 the find index answers as the oracle", () => {
  it("the generated tools hold every edge the rule names", () => {
    expect(tools.some((t) => t.lowestPaidPrice === null && t.hasFreePlan)).toBe(true);
    expect(tools.some((t) => t.lowestPaidPrice === null && !t.hasFreePlan)).toBe(true);
    expect(tools.some((t) => t.rating === null)).toBe(true);
    expect(tools.some((t) => t.categories.length === 0)).toBe(true);
    expect(index.count).toBe(tools.length);
  });

  it("every filter alone, with every sort", () => {
    const alone: FindCall[] = [
      {},
      ...FLAG_NAMES.flatMap((flag) => [{ [flag]: true }, { [flag]: false }]),
      ...CATEGORIES.map((category) => ({ category })),
      ...[0, 5, 9.98, 9.99, 19, 1000].map((maxPrice) => ({ maxPrice })),
      ...[0, 3.5, 4, 4.9, 5].map((minRating) => ({ minRating })),
    ];
    for (const call of alone) for (const sort of SORTS) expectSame({ ...call, sort, limit: 100 });
  });

  it("an unknown category is told apart from a known one with no tool", () => {
    expect(found({ category: "no-such-category" })).toBe("unknown category");
    expect(found({ category: "empty" })).toEqual({ total: 0, page: [], limit: 20, offset: 0 });
  });

  it("seeded combinations of filters, sorts and pages", () => {
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
    const call = fc.record({
      category: maybe(fc.constantFrom(...CATEGORIES)),
      hasMcpServer: maybe(fc.boolean()),
      hasApi: maybe(fc.boolean()),
      hasZapier: maybe(fc.boolean()),
      hasMake: maybe(fc.boolean()),
      hasFreePlan: maybe(fc.boolean()),
      maxPrice: maybe(fc.constantFrom(0, 9.99, 19, 50)),
      minRating: maybe(fc.constantFrom(0, 4, 4.8)),
      sort: maybe(fc.constantFrom(...SORTS)),
      limit: maybe(fc.integer({ min: 1, max: 100 })),
      offset: maybe(fc.integer({ min: 0, max: 170 })),
    });
    const compact = (o: FindCall) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
    for (const c of fc.sample(call, { seed: 5, numRuns: 400 })) expectSame(compact(c));
  });

  it("pages at the edges: offset 0, total − 1, total, total + 1; limit 1, 20 and 100", () => {
    const calls: FindCall[] = [
      {},
      { hasApi: true, sort: "price" },
      { category: "seo", sort: "rating" },
      { maxPrice: 19 },
    ];
    for (const call of calls) {
      const total = (found(call) as { total: number }).total;
      expect(total, JSON.stringify(call)).toBeGreaterThan(1);
      for (const offset of [0, total - 1, total, total + 1])
        for (const limit of [1, 20, 100]) {
          expectSame({ ...call, offset, limit });
          const page = (found({ ...call, offset, limit }) as { page: unknown[] }).page;
          expect(page.length).toBe(Math.max(0, Math.min(limit, total - offset)));
        }
    }
  });

  it("several words match as search-words.ts matches names", () => {
    const words = fc.array(fc.constantFrom("mail", "m", "alpha", "crm", "sparrow", "sms", "pro", "2", "e", "zz"), {
      minLength: 1,
      maxLength: 3,
    });
    for (const w of fc.sample(words, { seed: 7, numRuns: 200 }))
      expect(index.withEveryPrefix(w), w.join(" ")).toEqual(toolsWithEveryPrefix(tools, w));
  });

  it("refuses an index of another format, a row of another shape or a category it does not give", () => {
    const text = JSON.parse(findIndexText(tools, CATEGORIES));
    expect(() => new FindIndex({ ...text, format: FIND_INDEX_FORMAT + 1 })).toThrow(/another format/);
    expect(() => new FindIndex({ ...text, tools: [[0, null, null, [0]]] })).toThrow(/row/);
    expect(() => new FindIndex({ ...text, tools: [[0, null, null, [CATEGORIES.length], "x"]] })).toThrow(/category/);
  });
});
