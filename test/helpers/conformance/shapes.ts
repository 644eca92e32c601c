// The contract's field lists, in its order (H5): docs/guide/api.md, "What the fields mean"; D1.
export const SUMMARY_KEYS = [
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
];
export const DETAIL_KEYS = [
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
];
export const PLAN_KEYS = ["name", "price", "billing", "features"];
export const CATEGORY_KEYS = ["name", "slug", "toolCount", "mcpReadyCount", "topTool", "bestListUrl"];
export const TOP_TOOL_KEYS = ["name", "slug"];
export const RANKED_KEYS = ["name", "slug", "url", "lowestPrice", "hasFreePlan"];
export const ENVELOPE_KEYS = ["data", "meta"];
export const LIST_META_KEYS = ["total", "limit", "offset", "category"];
export const CATEGORIES_META_KEYS = ["total"];
export const BEST_META_KEYS = ["category", "total", "ranking"];
export const ERROR_CODES = [
  "software_not_found",
  "category_not_found",
  "invalid_limit",
  "invalid_offset",
  "offset_out_of_range",
  "not_found",
  "method_not_allowed",
  "invalid_query",
];

export interface Summary {
  name: string;
  slug: string;
  shortDescription: string;
  url: string;
  websiteUrl: string;
  rating: number | null;
  hasFreePlan: boolean;
  hasMcpServer: boolean;
  hasApi: boolean;
  categories: string[];
}
export interface Plan {
  name: string;
  price: number | null;
  billing: string;
  features: string[];
}
export interface Detail {
  name: string;
  slug: string;
  shortDescription: string;
  url: string;
  websiteUrl: string;
  logoUrl: string | null;
  rating: number | null;
  hasFreePlan: boolean;
  freeTrialDays: number | null;
  moneyBackDays: number | null;
  lowestPaidPrice: number | null;
  pricingPlans: Plan[];
  hasApi: boolean;
  hasMcpServer: boolean;
  hasZapier: boolean;
  hasMake: boolean;
  pros: string[];
  cons: string[];
  pricingLastVerified: string | null;
}
export interface CategoryItem {
  name: string;
  slug: string;
  toolCount: number;
  mcpReadyCount: number;
  topTool: { name: string; slug: string } | null;
  bestListUrl: string;
}
export interface Ranked {
  name: string;
  slug: string;
  url: string;
  lowestPrice: number | null;
  hasFreePlan: boolean;
}
export interface ListMeta {
  total: number;
  limit: number;
  offset: number;
  category: string | null;
}
export interface SoftwareList {
  data: Summary[];
  meta: ListMeta;
}
export interface CategoryList {
  data: CategoryItem[];
  meta: { total: number };
}
export interface BestList {
  data: Ranked[];
  meta: { category: string; total: number; ranking: string };
}
export interface ErrorBody {
  error: { code: string; message: string; hint?: string };
}
