// The catalog's MCP tools and resources (M2, M3, M5): each one request to the API, its body passed on unchanged;
// find_software and several-word search read the catalog's find index (catalog-index.ts). One definition of each
// tool, made once: the HTTP hosts make a server per request (http.ts), the stdio server one in all.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import * as z from "zod";
import {
  BestInCategoryResponse,
  CategoryListResponse,
  SearchResponse,
  SoftwareDetailResponse,
  SoftwareListResponse,
} from "../api/contract/response-schemas.ts";
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_SEARCH_PREFIX } from "../api/runtime/route-table.ts";
import { foldName } from "../content/fold-name.ts";
import { nameWords } from "../model/search-words.ts";
import { SLUG_PATTERN } from "../schemas/slug-pattern.ts";
import { type CatalogIndex, createCatalogIndex } from "./catalog-index.ts";
import { FindSoftwareResponse, findSoftware } from "./find-software.ts";
import { successOrError } from "./output-schema.ts";
import { bestTarget, categoriesTarget, listSoftwareTarget, searchTarget, softwareTarget } from "./requests.ts";
import type { ApiAnswer, CatalogSource } from "./source.ts";
import { wordsSearch } from "./words-search.ts";

export const TOOL_NAMES = [
  "list_software",
  "get_software",
  "list_categories",
  "get_best_in_category",
  "search_software",
  "find_software",
] as const;

/**
 * The server never asks the client for input (elicitation), the one use a server has for a JSON Schema validator
 * (tool inputs and outputs are checked by zod). One that throws spares every server an Ajv instance (0.3 ms, paid per
 * request over HTTP) and keeps Ajv out of the Worker, where its compiled validators cannot run.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error("this server never elicits input: it has no JSON Schema validator");
  },
};

/** What each source's servers keep between calls (the find index): one per source for stdio and the Node server. */
const catalogs = new WeakMap<CatalogSource, CatalogIndex>();
const catalogOf = (source: CatalogSource) =>
  catalogs.get(source) ?? catalogs.set(source, createCatalogIndex()).get(source)!;

/** MCP's "resource not found" error code (not in the SDK's enum). */
const RESOURCE_NOT_FOUND = -32002;

/** A slug input, its example of its own kind: a tool's slug is not a category's. */
const slug = (what: string, example: string) =>
  z
    .string()
    .regex(new RegExp(SLUG_PATTERN))
    .describe(`${what}: lower-case letters and digits in words joined by single hyphens, e.g. ${example}`);

/** The tool result for one API answer: the body as structured content and as text; an error status is isError. */
export function toolResult(answer: ApiAnswer): CallToolResult {
  return {
    content: [{ type: "text", text: answer.body }],
    structuredContent: JSON.parse(answer.body) as Record<string, unknown>,
    isError: answer.status !== 200,
  };
}

/** A resource's contents: the success body; an API error is MCP's resource-not-found carrying the error body. */
function resourceContents(uri: URL, answer: ApiAnswer): ReadResourceResult {
  if (answer.status !== 200) {
    const body = JSON.parse(answer.body) as { error: { message: string } };
    throw new McpError(RESOURCE_NOT_FOUND, `${uri.href}: ${body.error.message}`, body);
  }
  return { contents: [{ uri: uri.href, mimeType: "application/json", text: answer.body }] };
}

interface Listed {
  data: { name: string; slug: string }[];
  meta: { total: number };
}

/** Every tool of the catalog, a page of the API's largest size at a time (bounded by the total it reports). */
async function allSoftware(source: CatalogSource): Promise<Listed["data"]> {
  const all: Listed["data"] = [];
  for (let offset = 0; ; offset += MAX_LIMIT) {
    const answer = await source.get(listSoftwareTarget({ limit: MAX_LIMIT, offset }));
    if (answer.status !== 200) return all;
    const page = JSON.parse(answer.body) as Listed;
    all.push(...page.data);
    if (page.data.length < MAX_LIMIT || offset + MAX_LIMIT >= page.meta.total) return all;
  }
}

const INSTRUCTIONS =
  "Read-only access to a catalog of marketing software rated by fit for AI stacks (MCP servers, public APIs). " +
  "Every answer is the JSON body of the catalog's HTTP API for the same request; errors carry its error body " +
  "(code, message, hint). find_software answers which tools fit a need (category, MCP server, API, integrations, " +
  "free plan, budget, rating) in one call.";

const pageSize = () =>
  z.int().min(1).max(MAX_LIMIT).optional().describe(`Tools per page, 1 to ${MAX_LIMIT}; ${DEFAULT_LIMIT} when omitted`);
const flag = (what: string) =>
  z.boolean().optional().describe(`true: only tools ${what}; false: only tools without; omitted: either`);

/** Every tool's definition but its annotations' openWorldHint (the source's), made on first use and shared. */
function defineTools() {
  return {
    list_software: {
      title: "List software",
      description:
        "One page of the catalog's tools, ordered by name, optionally only those of one category. " +
        "meta.total counts every matching tool; page on with offset. An unknown category, or an offset beyond the total, is an error.",
      inputSchema: {
        category: slug("Only tools of this category (a slug from list_categories)", "email-marketing").optional(),
        limit: pageSize(),
        offset: z
          .int()
          .min(0)
          .optional()
          .describe("Tools to skip, 0 or more; 0 when omitted. An offset equal to meta.total gives an empty page"),
      },
      outputSchema: successOrError(
        SoftwareListResponse,
        "A page of tools (data, meta), or the API's error body (error)",
      ),
    },
    get_software: {
      title: "Get software",
      description:
        "Everything the catalog knows about one tool: pricing plans (prices in US dollars per month; 0 is free, null is a quote on request), free plan and trial, API and MCP server, integrations, pros and cons.",
      inputSchema: { slug: slug("The tool's slug (from list_software)", "mailwave") },
      outputSchema: successOrError(SoftwareDetailResponse, "The tool (data), or the API's error body (error)"),
    },
    list_categories: {
      title: "List categories",
      description:
        "The catalog's categories with at least two tools, ordered by name: tool count, MCP-ready count and top tool of each.",
      outputSchema: successOrError(
        CategoryListResponse,
        "The categories (data, meta), or the API's error body (error)",
      ),
    },
    get_best_in_category: {
      title: "Best in category",
      description:
        "The tools of one category ranked by lowest paid price (US dollars per month), cheapest first; tools without a paid price come last.",
      inputSchema: { category: slug("The category's slug (from list_categories)", "email-marketing") },
      outputSchema: successOrError(BestInCategoryResponse, "The ranking (data, meta), or the API's error body (error)"),
    },
    search_software: {
      title: "Search software",
      description:
        "Tools whose name has a word starting with each word of q, ordered by name: the first 20, and meta.total for " +
        "how many match. A name's words, and q's, are folded the same way: accents removed, lower-cased, split at " +
        'anything but letters and digits ("Mäil" and "MAIL" search for mail). One word answers exactly what the ' +
        'HTTP API answers for GET /search?q=word; several ("Sparrow SMS": every word starts a word of the name) ' +
        "answer the same shape, computed from the catalog. No match is an empty list.",
      inputSchema: {
        // Not the API's pattern here: an agent sends names, capitals and accents, which are folded first.
        q: z
          .string()
          .min(1)
          .max(4 * MAX_SEARCH_PREFIX)
          .describe(
            "One or more words, e.g. mail or sparrow sms: each the start of a word of a tool's name. Accents are " +
              "removed and capitals lowered; each word is then 1 to 32 letters a-z or digits 0-9",
          ),
      },
      outputSchema: successOrError(SearchResponse, "The matches (data, meta), or the API's error body (error)"),
    },
    find_software: {
      title: "Find software",
      description:
        "Which tools fit, in one call: the tools that pass every filter given (all optional), sorted and paged. " +
        "category keeps the tools of one category; hasMcpServer, hasApi, hasZapier, hasMake and hasFreePlan keep the " +
        "tools with (true) or without (false) an MCP server, a public API, a Zapier or Make integration, a free plan; " +
        "maxPrice is a monthly budget in US dollars: a tool's lowest paid plan must cost at most that, and a tool " +
        "with no paid price (free, or a quote on request) passes only when it has a free plan; minRating keeps tools " +
        "rated at least that (0 to 5), never unrated ones. sort: name (the default, A to Z), price (lowest paid " +
        "price first, tools without one last) or rating (highest first, unrated last); ties in name order. Each " +
        "result is the tool's summary (as list_software gives it) with its lowestPaidPrice; meta.total counts every " +
        "match, page on with offset (beyond the total: no data). An unknown category is an error.",
      inputSchema: {
        category: slug("Only tools of this category (a slug from list_categories)", "email-marketing").optional(),
        hasMcpServer: flag("with an MCP server of their own"),
        hasApi: flag("with a public API"),
        hasZapier: flag("with a Zapier integration"),
        hasMake: flag("with a Make (Integromat) integration"),
        hasFreePlan: flag("with a free plan (a plan priced 0)"),
        maxPrice: z
          .number()
          .min(0)
          .optional()
          .describe(
            "A monthly budget in US dollars: only tools whose lowest paid plan costs at most this; a tool with no " +
              "paid price passes only when it has a free plan",
          ),
        minRating: z
          .number()
          .min(0)
          .max(5)
          .optional()
          .describe("Only tools rated at least this, 0 to 5; unrated tools never pass"),
        sort: z
          .enum(["name", "price", "rating"])
          .optional()
          .describe(
            "name (the default): A to Z; price: lowest paid price first, tools without one last; rating: highest " +
              "first, unrated last. Ties in name order",
          ),
        limit: pageSize(),
        offset: z
          .int()
          .min(0)
          .optional()
          .describe("Matches to skip, 0 or more; 0 when omitted. Beyond meta.total the page is empty"),
      },
      outputSchema: successOrError(
        FindSoftwareResponse,
        "The matches (data: each tool's summary and lowestPaidPrice; meta: total, limit, offset), or the API's error body (error)",
      ),
    },
  } as const;
}

let tools: ReturnType<typeof defineTools> | undefined;

/**
 * A server over `source`. `catalog`: what its calls keep between them (the find index); by default one per source,
 * so every server over one source shares it. The Worker gives its isolate's own, as its source is one per request.
 */
export function createCatalogServer(
  source: CatalogSource,
  version: string,
  catalog: CatalogIndex = catalogOf(source),
): McpServer {
  const server = new McpServer(
    { name: "marketing-software-catalog", title: "Marketing Software Catalog", version },
    { instructions: INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION },
  );
  const defined = (tools ??= defineTools());
  const annotations = {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: source.remote,
  };
  const withAnnotations = <T extends { title: string }>(definition: T) => ({
    ...definition,
    annotations: { title: definition.title, ...annotations },
  });
  const call = async (target: string) => toolResult(await source.get(target));

  server.registerTool("list_software", withAnnotations(defined.list_software), (args) =>
    call(listSoftwareTarget(args)),
  );
  server.registerTool("get_software", withAnnotations(defined.get_software), ({ slug }) => call(softwareTarget(slug)));
  server.registerTool("list_categories", withAnnotations(defined.list_categories), () => call(categoriesTarget()));
  server.registerTool("get_best_in_category", withAnnotations(defined.get_best_in_category), ({ category }) =>
    call(bestTarget(category)),
  );
  server.registerTool("search_software", withAnnotations(defined.search_software), async ({ q }) => {
    const words = nameWords(q);
    if (words.length > 1 && words.every((w) => w.length <= MAX_SEARCH_PREFIX))
      return toolResult(await wordsSearch(catalog, source, words));
    // Else the API's own answer: one word is its request; no word, or one too long, its own 400 and hint.
    const sent = words.length === 0 ? foldName(q) : (words.find((w) => w.length > MAX_SEARCH_PREFIX) ?? words[0]!);
    return call(searchTarget(sent));
  });
  server.registerTool("find_software", withAnnotations(defined.find_software), async (args) =>
    toolResult(await findSoftware(catalog, source, args)),
  );

  server.registerResource(
    "categories",
    "catalog://categories",
    {
      title: "Categories",
      description: "The catalog's categories (the body of GET /categories)",
      mimeType: "application/json",
    },
    async (uri) => resourceContents(uri, await source.get(categoriesTarget())),
  );

  const variable = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? "") : (v ?? ""));

  server.registerResource(
    "software",
    new ResourceTemplate("catalog://software/{slug}", {
      list: async () => ({
        resources: (await allSoftware(source)).map((t) => ({
          uri: `catalog://software/${t.slug}`,
          name: t.name,
          mimeType: "application/json",
        })),
      }),
    }),
    {
      title: "Software",
      description: "One tool of the catalog (the body of GET /software/{slug})",
      mimeType: "application/json",
    },
    async (uri, { slug }) => resourceContents(uri, await source.get(softwareTarget(variable(slug)))),
  );

  server.registerResource(
    "best-in-category",
    new ResourceTemplate("catalog://best/{category}", {
      list: async () => {
        const answer = await source.get(categoriesTarget());
        const categories = answer.status === 200 ? (JSON.parse(answer.body) as Listed).data : [];
        return {
          resources: categories.map((c) => ({
            uri: `catalog://best/${c.slug}`,
            name: `Best ${c.name}`,
            mimeType: "application/json",
          })),
        };
      },
    }),
    {
      title: "Best in category",
      description: "One category's ranking by price (the body of GET /best/{category})",
      mimeType: "application/json",
    },
    async (uri, { category }) => resourceContents(uri, await source.get(bestTarget(variable(category)))),
  );

  return server;
}
