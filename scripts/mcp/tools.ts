// The catalog's MCP tools and resources (M2, M3): each one request to the API, its body passed on unchanged.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
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
import { successOrError } from "./output-schema.ts";
import { bestTarget, categoriesTarget, listSoftwareTarget, searchTarget, softwareTarget } from "./requests.ts";
import type { ApiAnswer, CatalogSource } from "./source.ts";
import { createWordsSearch } from "./words-search.ts";

export const TOOL_NAMES = [
  "list_software",
  "get_software",
  "list_categories",
  "get_best_in_category",
  "search_software",
] as const;

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

export function createCatalogServer(source: CatalogSource, version: string): McpServer {
  const server = new McpServer(
    { name: "marketing-software-catalog", title: "Marketing Software Catalog", version },
    {
      instructions:
        "Read-only access to a catalog of marketing software rated by fit for AI stacks (MCP servers, public APIs). " +
        "Every answer is the JSON body of the catalog's HTTP API for the same request; errors carry its error body " +
        "(code, message, hint).",
    },
  );
  const annotations = {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: source.remote,
  };
  const call = async (target: string) => toolResult(await source.get(target));

  server.registerTool(
    "list_software",
    {
      title: "List software",
      description:
        "One page of the catalog's tools, ordered by name, optionally only those of one category. " +
        "meta.total counts every matching tool; page on with offset. An unknown category, or an offset beyond the total, is an error.",
      inputSchema: {
        category: slug("Only tools of this category (a slug from list_categories)", "email-marketing").optional(),
        limit: z
          .int()
          .min(1)
          .max(MAX_LIMIT)
          .optional()
          .describe(`Tools per page, 1 to ${MAX_LIMIT}; ${DEFAULT_LIMIT} when omitted`),
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
      annotations: { title: "List software", ...annotations },
    },
    (args) => call(listSoftwareTarget(args)),
  );

  server.registerTool(
    "get_software",
    {
      title: "Get software",
      description:
        "Everything the catalog knows about one tool: pricing plans (prices in US dollars per month; 0 is free, null is a quote on request), free plan and trial, API and MCP server, integrations, pros and cons.",
      inputSchema: { slug: slug("The tool's slug (from list_software)", "mailwave") },
      outputSchema: successOrError(SoftwareDetailResponse, "The tool (data), or the API's error body (error)"),
      annotations: { title: "Get software", ...annotations },
    },
    ({ slug }) => call(softwareTarget(slug)),
  );

  server.registerTool(
    "list_categories",
    {
      title: "List categories",
      description:
        "The catalog's categories with at least two tools, ordered by name: tool count, MCP-ready count and top tool of each.",
      outputSchema: successOrError(
        CategoryListResponse,
        "The categories (data, meta), or the API's error body (error)",
      ),
      annotations: { title: "List categories", ...annotations },
    },
    () => call(categoriesTarget()),
  );

  server.registerTool(
    "get_best_in_category",
    {
      title: "Best in category",
      description:
        "The tools of one category ranked by lowest paid price (US dollars per month), cheapest first; tools without a paid price come last.",
      inputSchema: { category: slug("The category's slug (from list_categories)", "email-marketing") },
      outputSchema: successOrError(BestInCategoryResponse, "The ranking (data, meta), or the API's error body (error)"),
      annotations: { title: "Best in category", ...annotations },
    },
    ({ category }) => call(bestTarget(category)),
  );

  const wordsSearch = createWordsSearch(source);
  server.registerTool(
    "search_software",
    {
      title: "Search software",
      description:
        "Tools whose name has a word starting with each word of q, ordered by name: the first 20, and meta.total for " +
        "how many match. A name's words, and q's, are folded the same way: accents removed, lower-cased, split at " +
        'anything but letters and digits ("Mäil" and "MAIL" search for mail). One word answers exactly what the ' +
        'HTTP API answers for GET /search?q=word; several ("Sparrow SMS": every word starts a word of the name) ' +
        "answer the same shape, computed from the catalog's export. No match is an empty list.",
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
      annotations: { title: "Search software", ...annotations },
    },
    async ({ q }) => {
      const words = nameWords(q);
      if (words.length > 1 && words.every((w) => w.length <= MAX_SEARCH_PREFIX))
        return toolResult(await wordsSearch.answer(words));
      // Else the API's own answer: one word is its request; no word, or one too long, its own 400 and hint.
      const sent = words.length === 0 ? foldName(q) : (words.find((w) => w.length > MAX_SEARCH_PREFIX) ?? words[0]!);
      return call(searchTarget(sent));
    },
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
