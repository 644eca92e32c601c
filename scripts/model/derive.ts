// Content → catalog: every derived value and order of the decisions (D2, D4, D5, D6, O1–O4). Pure.
import type { CategoryContent, ToolContent } from "../content/schema.ts";
import type { ValidContent } from "../content/validate.ts";
import { compareByName, compareByPrice, compareByRating } from "./order.ts";

export type Site = ValidContent["site"];

export interface Tool extends ToolContent {
  url: string;
  hasFreePlan: boolean;
  lowestPaidPrice: number | null;
  /** D4: the tool's category slugs in O1 order of the categories' names */
  categorySlugs: string[];
}

export interface CategoryEntry extends CategoryContent {
  /** the category's tools in O1 order */
  tools: Tool[];
  /** O3: the price ranking of GET /best/{slug} */
  ranking: Tool[];
  toolCount: number;
  mcpReadyCount: number;
  topTool: { name: string; slug: string } | null;
  bestListUrl: string;
  /** O2: only categories with at least two tools are listed by GET /categories */
  listed: boolean;
}

export interface Catalog {
  site: Site;
  /** every tool in O1 order */
  tools: Tool[];
  /** every category in O1 order, listed or not */
  categories: CategoryEntry[];
}

/** D2: free when some plan costs 0; lowest paid price is the smallest price above 0. */
export function derivePrices(plans: ToolContent["pricingPlans"]): { hasFreePlan: boolean; lowestPaidPrice: number | null } {
  let hasFreePlan = false;
  let lowestPaidPrice: number | null = null;
  for (const { price } of plans) {
    if (price === 0) hasFreePlan = true;
    else if (price !== null && (lowestPaidPrice === null || price < lowestPaidPrice)) lowestPaidPrice = price;
  }
  return { hasFreePlan, lowestPaidPrice };
}

export function deriveCatalog({ site, categories, tools }: ValidContent): Catalog {
  const siteUrl = site.siteUrl.replace(/\/+$/, "");
  const sortedCategories = [...categories].sort(compareByName);
  const categoryRank = new Map(sortedCategories.map((c, i) => [c.slug, i]));

  const derivedTools: Tool[] = tools
    .map((t) => ({
      ...t,
      url: `${siteUrl}/software/${t.slug}`,
      ...derivePrices(t.pricingPlans),
      categorySlugs: [...t.categories].sort((a, b) => categoryRank.get(a)! - categoryRank.get(b)!),
    }))
    .sort(compareByName);

  const entries = sortedCategories.map((c): CategoryEntry => {
    const members = derivedTools.filter((t) => t.categories.includes(c.slug));
    const pick = c.topToolPick ? members.find((t) => t.slug === c.topToolPick) : undefined;
    const top = pick ?? [...members].sort(compareByRating)[0];
    return {
      ...c,
      tools: members,
      ranking: [...members].sort(compareByPrice),
      toolCount: members.length,
      mcpReadyCount: members.filter((t) => t.hasMcpServer).length,
      topTool: top ? { name: top.name, slug: top.slug } : null,
      bestListUrl: `${siteUrl}/best/${c.slug}`,
      listed: members.length >= 2,
    };
  });

  return { site, tools: derivedTools, categories: entries };
}
