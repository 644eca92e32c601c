// The response contract as zod schemas: every body a host serves, field order the contract's (H5). As strict as the
// contract and the decisions, so that any validator catches a wrong body, not only a wrong shape.
// schemas/items/ and schemas/responses/ are generated from these (npm run schemas); so is openapi.json's components.
import * as z from "zod";
import { FIELD_LIMITS, isoDate, listEntry, name, PricingPlan, rating, slug, uri } from "../../content/schema.ts";
import { ERROR_CODES } from "../operations.ts";

const count = z.int().min(0);
const lowestPrice = z
  .number()
  .positive()
  .nullable()
  .describe("the smallest plan price above 0 (US dollars per month), or null when no plan has one");
const categorySlugs = z.array(slug).describe("category slugs, ordered by category name");

export const SoftwareSummary = z
  .strictObject({
    name,
    slug,
    shortDescription: z.string().max(FIELD_LIMITS.shortDescription),
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
    shortDescription: z.string().max(FIELD_LIMITS.shortDescription),
    url: uri,
    websiteUrl: uri,
    logoUrl: uri.nullable(),
    rating: rating.describe("0 to 5, at most one decimal; null = not rated yet"),
    hasFreePlan: z.boolean(),
    freeTrialDays: count.nullable(),
    moneyBackDays: count.nullable(),
    lowestPaidPrice: lowestPrice,
    pricingPlans: z.array(PricingPlan).max(FIELD_LIMITS.plans),
    hasApi: z.boolean(),
    hasMcpServer: z.boolean(),
    hasZapier: z.boolean(),
    hasMake: z.boolean(),
    pros: z.array(listEntry).max(FIELD_LIMITS.pros),
    cons: z.array(listEntry).max(FIELD_LIMITS.cons),
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

/** Every code an error body can carry: those of the operations' description, in its order. */
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorBody = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
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

export const SearchResponse = z
  .strictObject({
    data: z.array(SoftwareSummary).max(20).describe("the first 20 matching tools, ordered by name"),
    meta: z.strictObject({
      total: count.describe("every tool with a word of its name starting with q"),
      limit: z.literal(20),
    }),
  })
  .meta({ id: "SearchResponse" });

export const ExportedSoftware = SoftwareDetail.extend({ categories: categorySlugs }).meta({ id: "ExportedSoftware" });

export const ExportedCategory = Category.extend({
  toolCount: count.describe("tools in the category; the export has every category, even those with fewer than two"),
}).meta({ id: "ExportedCategory" });

export const ExportResponse = z
  .strictObject({
    data: z.strictObject({
      software: z.array(ExportedSoftware).describe("every tool, ordered by name"),
      categories: z.array(ExportedCategory).describe("every category, ordered by name"),
    }),
    meta: z.strictObject({ softwareCount: count, categoryCount: count }),
  })
  .meta({ id: "ExportResponse" });

const sha256 = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe("SHA-256 of the body, lower-case hex");
const bodyHash = z.strictObject({ sha256, size: count.describe("bytes of the body") });
const pieceRef = z
  .tuple([
    z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe("the piece's id: the SHA-256 of its body, lower-case hex; GET /sync/pieces/{id}.json"),
    z.int().min(1).describe("how many items it holds"),
    z.int().min(2).describe("bytes of its body"),
  ])
  .describe("one piece: its id, how many items it holds, and its body's bytes");
const treeFormat = z.literal(2).describe("the hash tree's format");

export const SyncRoot = z
  .strictObject({
    data: z
      .record(z.string().regex(/^[a-z0-9][a-z0-9-]*$/), bodyHash)
      .describe("each shard by name (its file is sync/{name}.json), with the hash and size of its body"),
    meta: z.strictObject({
      format: treeFormat,
      shards: count,
      targets: count.describe("request targets over all shards: bodies and lists"),
      pieces: count.describe("distinct pieces the shards name"),
    }),
  })
  .meta({ id: "SyncRoot" });

export const SyncShard = z
  .strictObject({
    data: z
      .record(
        z.string().regex(/^\/\S+$/),
        z.union([
          bodyHash.describe("a body served at this request target"),
          z
            .strictObject({
              sha256,
              size: count.describe("bytes of the body"),
              parts: z
                .array(
                  z.union([
                    z.strictObject({ text: z.string().describe("these characters, as they are") }),
                    z.strictObject({
                      pieces: z
                        .array(pieceRef)
                        .describe("these pieces' items joined by commas, without their brackets"),
                    }),
                  ]),
                )
                .describe("the body is its parts concatenated"),
            })
            .describe("a body served at this request target, made of pieces (the export)"),
          z
            .strictObject({
              sha256: sha256.describe("SHA-256 of the list's items joined by commas"),
              size: count.describe("bytes of the list's items joined by commas"),
              category: slug.nullable().describe("the list's meta.category"),
              total: count.describe("the list's meta.total: how many items it holds"),
              pieces: z.array(pieceRef).describe("the list's pieces, in order"),
            })
            .describe("a list (`/software`, `/software?category={slug}`): every page of it is a window of its items"),
        ]),
      )
      .describe(
        "each request target (path and query, as a client sends it) with the hash and size of its body, or a list " +
          "with its pieces",
      ),
    meta: z.strictObject({ format: treeFormat, shard: z.string(), targets: count }),
  })
  .meta({ id: "SyncShard" });

export const SyncPiece = z
  .array(z.union([SoftwareSummary, ExportedSoftware]))
  .min(1)
  .describe(
    "consecutive items of one list (SoftwareSummary, as list pages hold them) or of the export's software array " +
      "(ExportedSoftware), in their order",
  )
  .meta({ id: "SyncPiece" });

export type SoftwareSummary = z.infer<typeof SoftwareSummary>;
export type SoftwareDetail = z.infer<typeof SoftwareDetail>;
export type Category = z.infer<typeof Category>;
export type RankedTool = z.infer<typeof RankedTool>;
export type ErrorBody = z.infer<typeof ErrorBody>;
export type SearchResponse = z.infer<typeof SearchResponse>;
export type ExportResponse = z.infer<typeof ExportResponse>;
export type SyncRoot = z.infer<typeof SyncRoot>;
export type SyncShard = z.infer<typeof SyncShard>;
export type SyncPiece = z.infer<typeof SyncPiece>;
export type SoftwareListResponse = z.infer<typeof SoftwareListResponse>;
export type CategoryListResponse = z.infer<typeof CategoryListResponse>;
export type BestInCategoryResponse = z.infer<typeof BestInCategoryResponse>;

/** The response schemas by their file in schemas/: items/ the objects inside bodies, responses/ one per body. */
export const RESPONSE_SCHEMAS = {
  "items/software-summary.schema.json": SoftwareSummary,
  "items/software-detail.schema.json": SoftwareDetail,
  "items/category.schema.json": Category,
  "items/ranked-tool.schema.json": RankedTool,
  "responses/software-list-response.schema.json": SoftwareListResponse,
  "responses/software-detail-response.schema.json": SoftwareDetailResponse,
  "responses/category-list-response.schema.json": CategoryListResponse,
  "responses/best-in-category-response.schema.json": BestInCategoryResponse,
  "responses/error-response.schema.json": ErrorBody,
  "items/exported-software.schema.json": ExportedSoftware,
  "items/exported-category.schema.json": ExportedCategory,
  "responses/search-response.schema.json": SearchResponse,
  "responses/export-response.schema.json": ExportResponse,
  "responses/sync-root.schema.json": SyncRoot,
  "responses/sync-shard.schema.json": SyncShard,
  "responses/sync-piece.schema.json": SyncPiece,
} as const;
