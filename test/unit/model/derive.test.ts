import { describe, expect, it } from "vitest";
import { deriveCatalog, derivePrices } from "../../../scripts/model/derive.ts";
import { compareByName, compareByPrice } from "../../../scripts/model/order.ts";
import { toolContent } from "../../helpers/content/content.ts";

const plan = (price: number | null) => ({ name: `p${price}`, price, billing: "monthly" as const, features: [] });

const tool = toolContent;

const site = {
  siteUrl: "https://site.example/",
  apiBaseUrl: "https://api.site.example",
  basePath: "/v1",
  cacheMaxAge: 300,
  cacheStaleWhileRevalidate: 0,
};

describe("D2 prices are derived from the plans", () => {
  it.each([
    ["free and paid plans", [0, 19, 9.5, null], { hasFreePlan: true, lowestPaidPrice: 9.5 }],
    ["free-only", [0, 0], { hasFreePlan: true, lowestPaidPrice: null }],
    ["quote-only", [null], { hasFreePlan: false, lowestPaidPrice: null }],
    ["no plans", [], { hasFreePlan: false, lowestPaidPrice: null }],
    ["paid only", [49, 29], { hasFreePlan: false, lowestPaidPrice: 29 }],
  ] as const)("%s", (_, prices, expected) => {
    expect(derivePrices(prices.map(plan))).toEqual(expected);
  });
});

describe("O1 order by name", () => {
  it("compares lower-cased names by UTF-16 code units, ties by slug", () => {
    const names = [
      { name: "Émailer", slug: "emailer" },
      { name: "beta", slug: "beta" },
      { name: "Alpha", slug: "alpha-2" },
      { name: "alpha", slug: "alpha-1" },
      { name: "360Reach", slug: "360reach" },
      { name: "Zeta", slug: "zeta" },
    ];
    // Digits < letters < non-ASCII in code units; localeCompare would put É beside E.
    expect([...names].sort(compareByName).map((n) => n.slug)).toEqual([
      "360reach",
      "alpha-1",
      "alpha-2",
      "beta",
      "zeta",
      "emailer",
    ]);
  });

  it("O3 puts null prices last and breaks ties by O1", () => {
    const t = (slug: string, lowestPaidPrice: number | null) => ({ name: slug, slug, lowestPaidPrice });
    const sorted = [t("d", null), t("c", 9), t("b", 19), t("a", 9), t("e", null)].sort(compareByPrice);
    expect(sorted.map((x) => x.slug)).toEqual(["a", "c", "b", "d", "e"]);
  });
});

describe("deriveCatalog", () => {
  const catalog = deriveCatalog({
    site,
    categories: [
      { name: "Email", slug: "email", topToolPick: "b" },
      { name: "CRM", slug: "crm" },
      { name: "Alone", slug: "alone" },
      { name: "Empty", slug: "empty" },
    ],
    tools: [
      tool("a", "Anvil", { rating: 4.5, categories: ["email", "crm"], hasMcpServer: true, pricingPlans: [plan(29)] }),
      tool("b", "Bolt", { rating: 3.0, categories: ["email"] }),
      tool("c", "cairn", { rating: 4.5, categories: ["crm", "alone"], pricingPlans: [plan(0), plan(9)] }),
    ],
  });
  const cat = (slug: string) => catalog.categories.find((c) => c.slug === slug)!;

  it("D6 builds URLs from the site address (trailing slash ignored)", () => {
    expect(catalog.tools[0]!.url).toBe("https://site.example/software/a");
    expect(cat("crm").bestListUrl).toBe("https://site.example/best/crm");
  });

  it("D4 lists a tool's categories in O1 order of their names", () => {
    expect(catalog.tools.find((t) => t.slug === "a")!.categorySlugs).toEqual(["crm", "email"]);
    expect(catalog.tools.find((t) => t.slug === "c")!.categorySlugs).toEqual(["alone", "crm"]);
  });

  it("D5 counts tools and MCP-ready tools", () => {
    expect([cat("email").toolCount, cat("email").mcpReadyCount]).toEqual([2, 1]);
    expect([cat("empty").toolCount, cat("empty").mcpReadyCount]).toEqual([0, 0]);
  });

  it("D5 topTool is the editorial pick when there is one, though another tool rates higher", () => {
    expect(cat("email").topTool).toEqual({ name: "Bolt", slug: "b" });
  });

  it("D5 topTool is otherwise the highest rated, ties by O1", () => {
    expect(cat("crm").topTool).toEqual({ name: "Anvil", slug: "a" });
    expect(cat("empty").topTool).toBeNull();
  });

  it("O2 lists only categories with at least two tools", () => {
    expect(catalog.categories.filter((c) => c.listed).map((c) => c.slug)).toEqual(["crm", "email"]);
  });

  it("O3 ranks a category by lowest paid price", () => {
    expect(cat("crm").ranking.map((t) => t.slug)).toEqual(["c", "a"]);
  });

  it("breaks ties in price and rating by O1, whatever order the content came in", () => {
    const tied = deriveCatalog({
      site,
      categories: [{ name: "Email", slug: "email" }],
      tools: ["Zed", "mid", "Alpha", "Beta"].map((name, i) =>
        tool(name.toLowerCase(), name, {
          rating: i === 3 ? null : 4,
          categories: ["email"],
          pricingPlans: [plan(i === 3 ? 5 : 10)],
        }),
      ),
    });
    const email = tied.categories[0]!;
    expect(email.ranking.map((t) => t.slug)).toEqual(["beta", "alpha", "mid", "zed"]);
    expect(email.topTool).toEqual({ name: "Alpha", slug: "alpha" });
  });
});
