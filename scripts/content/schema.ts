// The one source of truth: every content file and every response body is defined here.
// schemas/*.json and the OpenAPI description are generated from these zod schemas.
import * as z from "zod";
import { RATING_VALUES } from "./rating-values.ts";
import type { SchemaFile } from "./schema-files.ts";
import { SLUG_PATTERN } from "./slug-pattern.ts";

export { RATING_VALUES, SLUG_PATTERN };
export type { SchemaFile };
// Length limits (C3): one field is copied into thousands of pages, so none may be big.
export const LIMITS = {
  name: 80,
  shortDescription: 300,
  listEntry: 200,
  pros: 20,
  cons: 20,
  plans: 20,
  featuresPerPlan: 30,
  // Not named by C3 but published in every page all the same: slugs are also file names, URLs are in every item.
  slug: 80,
  uri: 2000,
} as const;

const rating = z
  .number()
  .min(0)
  .max(5)
  .meta({ enum: [...RATING_VALUES] })
  .nullable();

const slug = z.string().max(LIMITS.slug).regex(new RegExp(SLUG_PATTERN));
const uri = z.url().max(LIMITS.uri);
const isoDate = z.iso.date();
const nonNegativeInt = z.int().min(0);
const name = z.string().min(1).max(LIMITS.name);
const listEntry = z.string().max(LIMITS.listEntry);

// ---- content ---------------------------------------------------------------

export const PricingPlan = z
  .strictObject({
    name,
    price: z.number().min(0).nullable().describe("US dollars per month; 0 = free, null = quote on request"),
    billing: z.enum(["monthly", "annual", "custom"]),
    features: z.array(listEntry).max(LIMITS.featuresPerPlan),
  })
  .meta({ id: "PricingPlan", title: "Pricing plan" });

export const SiteSettings = z
  .strictObject({
    $schema: z.string().optional(),
    siteUrl: uri.describe("public base address of the site; tool and best-of URLs are built from it (D6)"),
    apiBaseUrl: uri.describe("public base address of the API, without the base path; used in the OpenAPI servers list"),
    basePath: z.string().regex(/^\/[a-z0-9-]+(?:\/[a-z0-9-]+)*$/).default("/v1").describe("API base path (P1)"),
    cacheMaxAge: nonNegativeInt.default(300).describe("seconds of Cache-Control max-age on successful responses (H3)"),
  })
  .meta({ id: "SiteSettings", title: "Site settings (content/site.json)" });

export const CategoryContent = z
  .strictObject({
    $schema: z.string().optional(),
    name,
    slug: slug.describe("must equal the file name without .json"),
    topToolPick: slug.optional().describe("editorial top tool: the slug of a tool of this category (D5)"),
    editorialNotes: z.string().optional().describe("editorial-only; never published"),
  })
  .meta({ id: "CategoryContent", title: "Category (content/categories/<slug>.json)" });

export const ToolContent = z
  .strictObject({
    $schema: z.string().optional(),
    name,
    slug: slug.describe("must equal the file name without .json"),
    shortDescription: z.string().max(LIMITS.shortDescription),
    websiteUrl: uri,
    logoUrl: uri.nullable(),
    rating: rating.describe("0 to 5, at most one decimal; null = not rated yet (D3)"),
    freeTrialDays: nonNegativeInt.nullable(),
    moneyBackDays: nonNegativeInt.nullable(),
    pricingPlans: z.array(PricingPlan).max(LIMITS.plans),
    hasApi: z.boolean(),
    hasMcpServer: z.boolean(),
    hasZapier: z.boolean(),
    hasMake: z.boolean(),
    pros: z.array(listEntry).max(LIMITS.pros),
    cons: z.array(listEntry).max(LIMITS.cons),
    pricingLastVerified: isoDate.nullable(),
    categories: z.array(slug).describe("slugs of the tool's categories"),
    internalNotes: z.string().optional().describe("editorial-only; never published (H5)"),
  })
  .meta({ id: "ToolContent", title: "Tool (content/tools/<slug>.json)" });

export type PricingPlan = z.infer<typeof PricingPlan>;
export type SiteSettings = z.infer<typeof SiteSettings>;
export type CategoryContent = z.infer<typeof CategoryContent>;
export type ToolContent = z.infer<typeof ToolContent>;

// ---- responses (field order is the contract's, H5) ------------------------
// As strict as the contract and the decisions, so that any validator catches a wrong body, not only a wrong shape.

const count = z.int().min(0);
const lowestPrice = z.number().positive().nullable().describe("the smallest plan price above 0 (US dollars per month), or null when no plan has one");
const categorySlugs = z.array(slug).describe("category slugs, ordered by category name");

export const SoftwareSummary = z
  .strictObject({
    name,
    slug,
    shortDescription: z.string().max(LIMITS.shortDescription),
    url: uri,
    websiteUrl: uri,
    rating: rating.describe("0 to 5, at most one decimal; null = not rated yet"),
    hasFreePlan: z.boolean(),
    hasMcpServer: z.boolean(),
    hasApi: z.boolean(),
    categories: categorySlugs,
  })
  .meta({ id: "SoftwareSummary" });

export const SoftwareDetail = z
  .strictObject({
    name,
    slug,
    shortDescription: z.string().max(LIMITS.shortDescription),
    url: uri,
    websiteUrl: uri,
    logoUrl: uri.nullable(),
    rating: rating.describe("0 to 5, at most one decimal; null = not rated yet"),
    hasFreePlan: z.boolean(),
    freeTrialDays: count.nullable(),
    moneyBackDays: count.nullable(),
    lowestPaidPrice: lowestPrice,
    pricingPlans: z.array(PricingPlan).max(LIMITS.plans),
    hasApi: z.boolean(),
    hasMcpServer: z.boolean(),
    hasZapier: z.boolean(),
    hasMake: z.boolean(),
    pros: z.array(listEntry).max(LIMITS.pros),
    cons: z.array(listEntry).max(LIMITS.cons),
    pricingLastVerified: isoDate.nullable(),
  })
  .meta({ id: "SoftwareDetail" });

export const Category = z
  .strictObject({
    name,
    slug,
    toolCount: z.int().min(2).describe("tools in the category; only categories with at least two are listed"),
    mcpReadyCount: count,
    topTool: z.strictObject({ name, slug }).nullable(),
    bestListUrl: uri,
  })
  .meta({ id: "Category" });

export const RankedTool = z
  .strictObject({
    name,
    slug,
    url: uri,
    lowestPrice,
    hasFreePlan: z.boolean(),
  })
  .meta({ id: "RankedTool" });

export const ERROR_CODES = [
  "software_not_found",
  "category_not_found",
  "invalid_limit",
  "invalid_offset",
  "offset_out_of_range",
  "not_found",
  "method_not_allowed",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorBody = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      hint: z.string().optional(),
    }),
  })
  .meta({ id: "Error" });

export const SoftwareListResponse = z
  .strictObject({
    data: z.array(SoftwareSummary),
    meta: z.strictObject({
      total: count,
      limit: z.int().min(1).max(100),
      offset: count,
      category: slug.nullable(),
    }),
  })
  .meta({ id: "SoftwareListResponse" });

export const SoftwareDetailResponse = z.strictObject({ data: SoftwareDetail }).meta({ id: "SoftwareDetailResponse" });

export const CategoryListResponse = z
  .strictObject({ data: z.array(Category), meta: z.strictObject({ total: count }) })
  .meta({ id: "CategoryListResponse" });

export const BestInCategoryResponse = z
  .strictObject({
    data: z.array(RankedTool),
    meta: z.strictObject({
      category: slug,
      total: count,
      ranking: z.enum(["price-ascending"]),
    }),
  })
  .meta({ id: "BestInCategoryResponse" });

export type SoftwareSummary = z.infer<typeof SoftwareSummary>;
export type SoftwareDetail = z.infer<typeof SoftwareDetail>;
export type Category = z.infer<typeof Category>;
export type RankedTool = z.infer<typeof RankedTool>;
export type ErrorBody = z.infer<typeof ErrorBody>;
export type SoftwareListResponse = z.infer<typeof SoftwareListResponse>;
export type CategoryListResponse = z.infer<typeof CategoryListResponse>;
export type BestInCategoryResponse = z.infer<typeof BestInCategoryResponse>;

/**
 * Every generated JSON Schema file: its path under schemas/ and its zod source. responses/ holds one schema per
 * response body (what a file of dist/ must satisfy); items/ the objects inside them (list items, the detail's data).
 */
export const SCHEMA_FILES = {
  "content/site.schema.json": SiteSettings,
  "content/category.schema.json": CategoryContent,
  "content/tool.schema.json": ToolContent,
  "items/software-summary.schema.json": SoftwareSummary,
  "items/software-detail.schema.json": SoftwareDetail,
  "items/category.schema.json": Category,
  "items/ranked-tool.schema.json": RankedTool,
  "responses/software-list-response.schema.json": SoftwareListResponse,
  "responses/software-detail-response.schema.json": SoftwareDetailResponse,
  "responses/category-list-response.schema.json": CategoryListResponse,
  "responses/best-in-category-response.schema.json": BestInCategoryResponse,
  "responses/error-response.schema.json": ErrorBody,
} as const satisfies Record<SchemaFile, z.ZodType>;
