// Whole lists fetched the way a client would: /software in limit=100 pages, every tool's detail.
import type { Catalog } from "./catalog.ts";
import type { Client } from "./http.ts";
import { mapPool, POOL } from "./pool.ts";
import type { BestList, CategoryList, Detail, SoftwareList, Summary } from "./shapes.ts";

/** every page of limit=100 until meta.total is reached (offset = total is the empty last page, Q4) */
export async function fetchFullList(client: Client, catalog: Catalog, category?: string): Promise<Summary[]> {
  const filter = category === undefined ? "" : `&category=${category}`;
  const all: Summary[] = [];
  for (let offset = 0, pages = 0; ; offset += 100, pages++) {
    if (pages > 1000) throw new Error("more than 1000 pages: meta.total never reached");
    const page = await client.data<SoftwareList>(`${catalog.basePath}/software?limit=100&offset=${offset}${filter}`);
    all.push(...page.data);
    if (offset + 100 >= page.meta.total) return all;
  }
}

export interface Snapshot {
  summaries: Summary[];
  details: Map<string, Detail>;
  categories: CategoryList;
  /** /best/{categorySlug} of every category with at least one tool in the content */
  best: Map<string, BestList>;
}

export async function fetchSnapshot(client: Client, catalog: Catalog): Promise<Snapshot> {
  const summaries = await fetchFullList(client, catalog);
  const details = await mapPool(summaries, POOL, (s) =>
    client.data<{ data: Detail }>(`${catalog.basePath}/software/${s.slug}`),
  );
  const ranked = catalog.categories.filter((c) => c.members.length > 0);
  const best = await mapPool(ranked, POOL, (c) => client.data<BestList>(`${catalog.basePath}/best/${c.slug}`));
  return {
    summaries,
    details: new Map(details.map((d) => [d.data.slug, d.data])),
    categories: await client.data<CategoryList>(`${catalog.basePath}/categories`),
    best: new Map(ranked.map((c, i) => [c.slug, best[i]!])),
  };
}
