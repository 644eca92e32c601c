// The one source of truth: every content file and every response body is defined here.
// schemas/*.json and the OpenAPI description are generated from these zod schemas.
import * as z from "zod";
import { SLUG_PATTERN } from "./slug-pattern.ts";

export { SLUG_PATTERN };
const slug = z.string().regex(new RegExp(SLUG_PATTERN));
const uri = z.url();
const isoDate = z.iso.date();
const nonNegativeInt = z.int().min(0);

// ---- content ---------------------------------------------------------------

export const PricingPlan = z
  .strictObject({
    name: z.string().min(1),
    price: z.number().min(0).nullable().describe("US dollars per month; 0 = free, null = quote on request"),
    billing: z.enum(["monthly", "annual", "custom"]),
    features: z.array(z.string()),
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
    name: z.string().min(1),
    slug: slug.describe("must equal the file name without .json"),
    topToolPick: slug.optional().describe("editorial top tool: the slug of a tool of this category (D5)"),
    editorialNotes: z.string().optional().describe("editorial-only; never published"),
  })
  .meta({ id: "CategoryContent", title: "Category (content/categories/<slug>.json)" });

export const ToolContent = z
  .strictObject({
    $schema: z.string().optional(),
    name: z.string().min(1),
    slug: slug.describe("must equal the file name without .json"),
    shortDescription: z.string(),
    websiteUrl: uri,
    logoUrl: uri.nullable(),
    rating: z.number().min(0).max(5).multipleOf(0.1).nullable().describe("0 to 5, one decimal; null = not rated yet (D3)"),
    freeTrialDays: nonNegativeInt.nullable(),
    moneyBackDays: nonNegativeInt.nullable(),
    pricingPlans: z.array(PricingPlan),
    hasApi: z.boolean(),
    hasMcpServer: z.boolean(),
    hasZapier: z.boolean(),
    hasMake: z.boolean(),
    pros: z.array(z.string()),
    cons: z.array(z.string()),
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

export const SoftwareSummary = z
  .strictObject({
    name: z.string(),
    slug: z.string(),
    shortDescription: z.string(),
    url: uri,
    websiteUrl: uri,
    rating: z.number().nullable(),
    hasFreePlan: z.boolean(),
    hasMcpServer: z.boolean(),
    hasApi: z.boolean(),
    categories: z.array(z.string()).describe("category slugs, ordered by category name"),
  })
  .meta({ id: "SoftwareSummary" });

export const SoftwareDetail = z
  .strictObject({
    name: z.string(),
    slug: z.string(),
    shortDescription: z.string(),
    url: uri,
    websiteUrl: uri,
    logoUrl: uri.nullable(),
    rating: z.number().nullable(),
    hasFreePlan: z.boolean(),
    freeTrialDays: z.int().nullable(),
    moneyBackDays: z.int().nullable(),
    lowestPaidPrice: z.number().nullable(),
    pricingPlans: z.array(PricingPlan),
    hasApi: z.boolean(),
    hasMcpServer: z.boolean(),
    hasZapier: z.boolean(),
    hasMake: z.boolean(),
    pros: z.array(z.string()),
    cons: z.array(z.string()),
    pricingLastVerified: isoDate.nullable(),
  })
  .meta({ id: "SoftwareDetail" });

export const Category = z
  .strictObject({
    name: z.string(),
    slug: z.string(),
    toolCount: z.int(),
    mcpReadyCount: z.int(),
    topTool: z.strictObject({ name: z.string(), slug: z.string() }).nullable(),
    bestListUrl: uri,
  })
  .meta({ id: "Category" });

export const RankedTool = z
  .strictObject({
    name: z.string(),
    slug: z.string(),
    url: uri,
    lowestPrice: z.number().nullable(),
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
      total: z.int(),
      limit: z.int(),
      offset: z.int(),
      category: z.string().nullable(),
    }),
  })
  .meta({ id: "SoftwareListResponse" });

export const SoftwareDetailResponse = z.strictObject({ data: SoftwareDetail }).meta({ id: "SoftwareDetailResponse" });

export const CategoryListResponse = z
  .strictObject({ data: z.array(Category), meta: z.strictObject({ total: z.int() }) })
  .meta({ id: "CategoryListResponse" });

export const BestInCategoryResponse = z
  .strictObject({
    data: z.array(RankedTool),
    meta: z.strictObject({
      category: z.string(),
      total: z.int(),
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

/** Every generated JSON Schema file: its path under schemas/ and its zod source. */
export const SCHEMA_FILES = {
  "content/site.schema.json": SiteSettings,
  "content/category.schema.json": CategoryContent,
  "content/tool.schema.json": ToolContent,
  "responses/software-summary.schema.json": SoftwareSummary,
  "responses/software-detail.schema.json": SoftwareDetail,
  "responses/category.schema.json": Category,
  "responses/ranked-tool.schema.json": RankedTool,
  "responses/software-list.schema.json": SoftwareListResponse,
  "responses/software-detail-response.schema.json": SoftwareDetailResponse,
  "responses/category-list.schema.json": CategoryListResponse,
  "responses/best-in-category.schema.json": BestInCategoryResponse,
  "responses/error.schema.json": ErrorBody,
} as const;
export type SchemaFile = keyof typeof SCHEMA_FILES;
