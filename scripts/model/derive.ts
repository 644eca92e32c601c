// Content → catalog: every derived value and order of the decisions (D2, D4, D5, D6, O1–O4). Pure.
import { copyOfTool, planPrices } from "../content/recalled-tool.ts";
import type { CategoryContent, ToolContent } from "../content/schema.ts";
import type { ValidContent } from "../content/validate.ts";
import { compareByPrice, compareByRating, sortByName } from "./order.ts";

export type Site = ValidContent["site"];

export interface Tool extends ToolContent {
  url: string;
  hasFreePlan: boolean;
  lowestPaidPrice: number | null;
  /** D4: the tool's category slugs in O1 order of the categories' names */
  categorySlugs: string[];
  /** hash of the content file's text (absent for content made in memory): see renderSoftwareDetails */
  source?: string;
}

export interface CategoryEntry extends CategoryContent {
  /** the category's tools in O1 order */
  tools: Tool[];
  /** O3: the price ranking of GET /best/{categorySlug} */
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
export function derivePrices(plans: ToolContent["pricingPlans"]): {
  hasFreePlan: boolean;
  lowestPaidPrice: number | null;
} {
  return pricesOf(plans.map((plan) => plan.price));
}

/** derivePrices of the plans' prices. */
function pricesOf(prices: readonly (number | null)[]): { hasFreePlan: boolean; lowestPaidPrice: number | null } {
  let hasFreePlan = false;
  let lowestPaidPrice: number | null = null;
  for (const price of prices) {
    if (price === 0) hasFreePlan = true;
    else if (price !== null && (lowestPaidPrice === null || price < lowestPaidPrice)) lowestPaidPrice = price;
  }
  return { hasFreePlan, lowestPaidPrice };
}

export function deriveCatalog({ site, categories, tools, toolSources }: ValidContent): Catalog {
  const siteUrl = site.siteUrl.replace(/\/+$/, "");
  const sortedCategories = sortByName(categories);
  const categoryRank = new Map(sortedCategories.map((c, i) => [c.slug, i]));

  // A copy from one source, then the derived fields by name: spreading every tool cost a cold rebuild many times
  // as much, and Object.assign from several sources left each tool a dictionary (a property table of its own). A
  // recalled tool's copy reads its other fields from its file's text, as the tool does
  // (scripts/content/recalled-tool.ts).
  const derivedTools: Tool[] = sortByName(
    tools.map((t) => {
      const tool = copyOfTool(t) as Tool;
      const prices = pricesOf(planPrices(t));
      tool.hasFreePlan = prices.hasFreePlan;
      tool.lowestPaidPrice = prices.lowestPaidPrice;
      tool.url = [siteUrl, "/software/", t.slug].join(""); // one flat string, not a rope kept per tool
      tool.categorySlugs = [...t.categories].sort((a, b) => categoryRank.get(a)! - categoryRank.get(b)!);
      tool.source = toolSources?.get(t);
      return tool;
    }),
  );

  // Each category's members in O1 order, in one pass; their ties in price or rating keep that order (the same order
  // as comparing names again, without lower-casing names thousands of times): the sort is stable, and the best
  // rating is the first one found.
  const membersOf = new Map<string, Tool[]>(sortedCategories.map((c) => [c.slug, []]));
  for (const t of derivedTools) for (const slug of t.categories) membersOf.get(slug)?.push(t);
  const inO1 = () => 0;

  const entries = sortedCategories.map((c): CategoryEntry => {
    const members = membersOf.get(c.slug)!;
    const pick = c.topToolPick ? members.find((t) => t.slug === c.topToolPick) : undefined;
    const top =
      pick ??
      members.reduce<Tool | undefined>(
        (best, t) => (!best || compareByRating(t, best, inO1) < 0 ? t : best),
        undefined,
      );
    return {
      ...c,
      tools: members,
      ranking: [...members].sort((a, b) => compareByPrice(a, b, inO1)),
      toolCount: members.length,
      mcpReadyCount: members.filter((t) => t.hasMcpServer).length,
      topTool: top ? { name: top.name, slug: top.slug } : null,
      bestListUrl: `${siteUrl}/best/${c.slug}`,
      listed: members.length >= 2,
    };
  });

  return { site, tools: derivedTools, categories: entries };
}
