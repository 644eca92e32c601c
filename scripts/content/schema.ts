// The content files' zod schemas (site.json, categories/, tools/), and the field rules response bodies share with them
// (scripts/api/contract/response-schemas.ts). schemas/content/*.json is generated from these (npm run schemas).
import * as z from "zod";
import { PRICING_PLAN_FIELDS } from "../schemas/field-lists.ts";
import { RATING_VALUES } from "../schemas/rating-values.ts";
import { SLUG_PATTERN } from "../schemas/slug-pattern.ts";

export { RATING_VALUES, SLUG_PATTERN };
// Field limits (C3), of text lengths and list sizes: one field is copied into thousands of pages, so none may be big.
export const FIELD_LIMITS = {
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

/** Field rules that content files and response bodies share. */
export const rating = z
  .number()
  .min(0)
  .max(5)
  .meta({ enum: [...RATING_VALUES] })
  .nullable();

export const slug = z.string().max(FIELD_LIMITS.slug).regex(new RegExp(SLUG_PATTERN));
export const uri = z.url().max(FIELD_LIMITS.uri);
export const isoDate = z.iso.date();
export const nonNegativeInt = z.int().min(0);
export const name = z.string().min(1).max(FIELD_LIMITS.name);
export const listEntry = z.string().max(FIELD_LIMITS.listEntry);

/**
 * The shape of an object whose fields are `fields`, in that order (the one list: scripts/schemas/field-lists.ts),
 * each with its rule in `rules` (which may hold the rules of other objects' fields too).
 */
export function shapeOf<const F extends string, R extends { [K in F]: z.ZodType }>(
  fields: readonly F[],
  rules: R,
): Pick<R, F> {
  return Object.fromEntries(fields.map((field) => [field, rules[field]])) as Pick<R, F>;
}

// ---- content ---------------------------------------------------------------

export const PricingPlan = z
  .strictObject(
    shapeOf(PRICING_PLAN_FIELDS, {
      name,
      price: z.number().min(0).nullable().describe("US dollars per month; 0 = free, null = quote on request"),
      billing: z.enum(["monthly", "annual", "custom"]),
      features: z.array(listEntry).max(FIELD_LIMITS.featuresPerPlan),
    }),
  )
  .meta({ id: "PricingPlan", title: "Pricing plan" });

export const SiteSettings = z
  .strictObject({
    $schema: z.string().optional(),
    siteUrl: uri.describe("public base address of the site; tool and best-of URLs are built from it (D6)"),
    apiBaseUrl: uri.describe("public base address of the API, without the base path; used in the OpenAPI servers list"),
    basePath: z
      .string()
      .regex(/^\/[a-z0-9-]+(?:\/[a-z0-9-]+)*$/)
      .default("/v1")
      .describe("API base path (P1)"),
    cacheMaxAge: nonNegativeInt.default(300).describe("seconds of Cache-Control max-age on successful responses (H3)"),
    cacheStaleWhileRevalidate: nonNegativeInt
      .optional()
      .describe(
        "seconds a CDN may keep answering from a stale copy while it fetches a fresh one (Cache-Control stale-while-revalidate on successful responses); absent or 0: not sent",
      ),
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
    shortDescription: z.string().max(FIELD_LIMITS.shortDescription),
    websiteUrl: uri,
    logoUrl: uri.nullable(),
    rating: rating.describe("0 to 5, at most one decimal; null = not rated yet (D3)"),
    freeTrialDays: nonNegativeInt.nullable(),
    moneyBackDays: nonNegativeInt.nullable(),
    pricingPlans: z.array(PricingPlan).max(FIELD_LIMITS.plans),
    hasApi: z.boolean(),
    hasMcpServer: z.boolean(),
    hasZapier: z.boolean(),
    hasMake: z.boolean(),
    pros: z.array(listEntry).max(FIELD_LIMITS.pros),
    cons: z.array(listEntry).max(FIELD_LIMITS.cons),
    pricingLastVerified: isoDate.nullable(),
    categories: z.array(slug).describe("slugs of the tool's categories"),
    internalNotes: z.string().optional().describe("editorial-only; never published (H5)"),
  })
  .meta({ id: "ToolContent", title: "Tool (content/tools/<slug>.json)" });

export type PricingPlan = z.infer<typeof PricingPlan>;
export type SiteSettings = z.infer<typeof SiteSettings>;
export type CategoryContent = z.infer<typeof CategoryContent>;
export type ToolContent = z.infer<typeof ToolContent>;

/** The content schemas by their file in schemas/. */
export const CONTENT_SCHEMAS = {
  "content/site.schema.json": SiteSettings,
  "content/category.schema.json": CategoryContent,
  "content/tool.schema.json": ToolContent,
} as const;
