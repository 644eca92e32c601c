// The fields of each object the API's bodies hold, in the contract's order (H5): the one list of each. The zod
// schemas are built from these (scripts/content/schema.ts: a pricing plan; api/contract/response-schemas.ts: the
// items), and so are the objects the renderers make (render/pick-fields.ts). Zod-free: the build renders without
// loading zod.

/** A pricing plan, as a tool's content file holds it and as a detail shows it. */
export const PRICING_PLAN_FIELDS = ["name", "price", "billing", "features"] as const;

/** A tool as GET /software, its pages and GET /search list it. */
export const SOFTWARE_SUMMARY_FIELDS = [
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

/** A tool as GET /software/{slug} shows it (editorial fields never get here). */
export const SOFTWARE_DETAIL_FIELDS = [
  "name",
  "slug",
  "shortDescription",
  "url",
  "websiteUrl",
  "logoUrl",
  "rating",
  "hasFreePlan",
  "freeTrialDays",
  "moneyBackDays",
  "lowestPaidPrice",
  "pricingPlans",
  "hasApi",
  "hasMcpServer",
  "hasZapier",
  "hasMake",
  "pros",
  "cons",
  "pricingLastVerified",
] as const;

/** A tool in the catalog body (GET /export/catalog.json): its detail, then its categories. */
export const CATALOG_BODY_ITEM_FIELDS = [...SOFTWARE_DETAIL_FIELDS, "categories"] as const;

/** A category as GET /categories and the catalog body list it. */
export const CATEGORY_FIELDS = ["name", "slug", "toolCount", "mcpReadyCount", "topTool", "bestListUrl"] as const;

/** A tool in a category's price ranking, GET /best/{categorySlug}. */
export const RANKED_TOOL_FIELDS = ["name", "slug", "url", "lowestPrice", "hasFreePlan"] as const;
