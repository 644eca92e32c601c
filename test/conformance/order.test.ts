// O1–O4 and Q9 cross-checks: every page is a slice of the one full list; filters and rankings agree with it.
import { beforeAll, expect } from "vitest";
import { categoryWith } from "../helpers/conformance/catalog.ts";
import { suiteContext } from "../helpers/conformance/context.ts";
import { expectError } from "../helpers/conformance/expect-response.ts";
import { fetchFullList, fetchSnapshot, type Snapshot } from "../helpers/conformance/fetch-all.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import { compareByName, compareByPrice } from "../helpers/conformance/order.ts";
import { mapPool, POOL } from "../helpers/conformance/pool.ts";
import type { SoftwareList } from "../helpers/conformance/shapes.ts";

const { catalog } = suiteContext();
const base = catalog.basePath;

/** a fixed-seed generator (mulberry32): the same offsets on every run */
function seeded(seed: number) {
  return (below: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) % below) as number;
  };
}

const isSorted = <T>(items: T[], compare: (a: T, b: T) => number) =>
  items.every((x, i) => i === 0 || compare(items[i - 1]!, x) < 0);

forEachHost(({ test, client }) => {
  let snap: Snapshot;
  beforeAll(async () => {
    snap = await fetchSnapshot(client(), catalog);
  });

  test("O1 /software lists every tool by lower-cased name (UTF-16 code units), ties by slug", async () => {
    expect(isSorted(snap.summaries, compareByName), "the list is in O1 order by its own names").toBe(true);
    expect(
      snap.summaries.map((t) => t.slug),
      "the list is the catalog's tools in O1 order",
    ).toEqual(catalog.tools.map((t) => t.slug));
  });

  test("Q9 every page slice for every limit 1..100 equals the slice of the full list", async () => {
    const full = snap.summaries;
    const total = full.length;
    const random = seeded(20260101);
    const requests = Array.from({ length: 100 }, (_, i) => i + 1).flatMap((limit) =>
      [...new Set([0, 1, limit, Math.max(total - 1, 0), total, random(total + 1)])]
        .filter((offset) => offset <= total) // beyond is Q4's 400, tested there
        .map((offset) => ({ limit, offset })),
    );
    await mapPool(requests, POOL, async ({ limit, offset }) => {
      const page = await client().data<SoftwareList>(`${base}/software?limit=${limit}&offset=${offset}`);
      expect(page.meta, `limit=${limit}&offset=${offset}`).toEqual({ total, limit, offset, category: null });
      expect(page.data, `limit=${limit}&offset=${offset}`).toEqual(full.slice(offset, offset + limit));
    });
  });

  test("O1 the category filter keeps the order and holds exactly the tools whose categories include the slug", async () => {
    for (const category of catalog.categories) {
      const filtered = await fetchFullList(client(), catalog, category.slug);
      expect(filtered, category.slug).toEqual(snap.summaries.filter((t) => t.categories.includes(category.slug)));
      expect(
        filtered.map((t) => t.slug),
        `${category.slug}: the content's members`,
      ).toEqual(category.members);
    }
  });

  test("Q9 filtered pages are slices of the filtered list", async () => {
    const requests = catalog.categories.flatMap((c) =>
      [1, 2, 7, 100].flatMap((limit) =>
        Array.from({ length: c.members.length + 1 }, (_, offset) => ({ c, limit, offset })),
      ),
    );
    await mapPool(requests, POOL, async ({ c, limit, offset }) => {
      const query = `category=${c.slug}&limit=${limit}&offset=${offset}`;
      const page = await client().data<SoftwareList>(`${base}/software?${query}`);
      expect(page.meta, query).toEqual({ total: c.members.length, limit, offset, category: c.slug });
      expect(
        page.data.map((t) => t.slug),
        query,
      ).toEqual(c.members.slice(offset, offset + limit));
    });
  });

  test("O2 /categories lists the categories with at least two tools, by name", async () => {
    const { data, meta } = snap.categories;
    expect(isSorted(data, compareByName), "O1 order by its own names").toBe(true);
    const expected = catalog.categories.filter(
      (c) => snap.summaries.filter((t) => t.categories.includes(c.slug)).length >= 2,
    );
    expect(data.map((c) => c.slug)).toEqual(expected.map((c) => c.slug));
    expect(meta.total).toBe(data.length);
  });

  test("O3 /best orders by lowestPrice ascending, nulls last, ties by O1", async () => {
    expect(snap.best.size).toBeGreaterThan(0);
    for (const [slug, { data, meta }] of snap.best) {
      expect(isSorted(data, compareByPrice), `${slug}: O3 order`).toBe(true);
      expect(meta, slug).toEqual({ category: slug, total: data.length, ranking: "price-ascending" });
      expect(data.map((t) => t.slug).sort(), `${slug}: every tool of the category`).toEqual(
        [...catalog.categoryBySlug.get(slug)!.members].sort(),
      );
    }
  });

  test("O3 /best agrees with each tool's detail (lowestPrice, hasFreePlan, url, name)", async () => {
    for (const [slug, { data }] of snap.best) {
      for (const ranked of data) {
        const detail = snap.details.get(ranked.slug)!;
        expect(ranked, `${slug}/${ranked.slug}`).toEqual({
          name: detail.name,
          slug: detail.slug,
          url: detail.url,
          lowestPrice: detail.lowestPaidPrice,
          hasFreePlan: detail.hasFreePlan,
        });
      }
    }
  });

  test("O4 /best of an unknown category → 404 category_not_found", async () => {
    for (const slug of ["no-such-category", categoryWith(catalog, "listed").slug.toUpperCase()]) {
      expectError(await client().get(`${base}/best/${slug}`), 404, "category_not_found");
    }
  });

  test("O4 /best of a category with no tools → 404 category_not_found", async () => {
    expectError(
      await client().get(`${base}/best/${categoryWith(catalog, "no tools").slug}`),
      404,
      "category_not_found",
    );
  });

  test("O4 /best of a one-tool category answers 200, although /categories does not list it", async () => {
    const single = categoryWith(catalog, "one tool");
    const best = snap.best.get(single.slug)!;
    expect(best.data.map((t) => t.slug)).toEqual(single.members);
    expect(snap.categories.data.map((c) => c.slug)).not.toContain(single.slug);
  });
});
