// Examples of the OpenAPI description, taken from the bodies the build renders for this very catalog.

import {
  ERRORS,
  type ErrorId,
  LIST_ERROR_STATUS,
  type ListErrorId,
  type OperationId,
  ROUTE_ERROR_STATUS,
} from "../api/operations.ts";
import { ALL_FILTER, fill, type RouteLayout, SEARCH_LIMIT } from "../api/runtime/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { firstNameWord, toolsWithPrefix } from "../model/search-words.ts";
import { renderCategories } from "./categories.ts";
import { renderErrors } from "./errors.ts";
import { json } from "./output.ts";
import { renderRankings } from "./rankings.ts";
import { toDetail, toSummary } from "./software.ts";

export interface Example {
  summary: string;
  value: unknown;
}

/** Long lists are cut to their first items in examples; meta stays the real one. */
const LIST_EXAMPLE_ITEMS = 3;
/** `limit` of the list example: a real page, small enough to read. */
const EXAMPLE_LIMIT = 2;

const bodyOf = (body: string | Uint8Array): unknown =>
  JSON.parse(typeof body === "string" ? body : Buffer.from(body).toString("utf8"));

function firstItems(body: unknown): unknown {
  const b = body as { data: unknown[]; meta: unknown };
  return { data: b.data.slice(0, LIST_EXAMPLE_ITEMS), meta: b.meta };
}

export interface ApiExamples {
  /** the 200 examples of each operation that has some */
  operations: Partial<Record<OperationId, Record<string, Example>>>;
  /** error bodies as built (errors/{id}.json), and offset_out_of_range of the unfiltered list */
  errors: Record<ErrorId | ListErrorId, Example>;
}

export function buildExamples(catalog: Catalog, files: RouteLayout): ApiExamples {
  const base = catalog.site.basePath;

  const listSoftware: Record<string, Example> = {};
  // Same bytes as the page file v1/software/pages/all/2/0.json: the summaries in O1 order and the meta in effect (Q9).
  const page = (category: string | null, tools: Catalog["tools"]) =>
    JSON.parse(
      `{"data":[${tools
        .slice(0, EXAMPLE_LIMIT)
        .map((t) => json(toSummary(t)))
        .join(",")}],"meta":${json({ total: tools.length, limit: EXAMPLE_LIMIT, offset: 0, category })}}`,
    ) as unknown;
  listSoftware.firstPage = { summary: `GET ${base}/software?limit=${EXAMPLE_LIMIT}`, value: page(null, catalog.tools) };
  const category = catalog.categories.find((c) => c.tools.length > 0);
  if (category) {
    listSoftware.byCategory = {
      summary: `GET ${base}/software?category=${category.slug}&limit=${EXAMPLE_LIMIT}`,
      value: page(category.slug, category.tools),
    };
  }

  const getSoftware: Record<string, Example> = {};
  const first = catalog.tools[0];
  if (first) {
    const value = bodyOf(json({ data: toDetail(first) })) as { data: { slug: string } };
    getSoftware.firstTool = { summary: `GET ${base}/software/${value.data.slug}`, value };
  }

  const categories = bodyOf(renderCategories(catalog, files).body) as { data: unknown[]; meta: { total: number } };
  const shown = Math.min(LIST_EXAMPLE_ITEMS, categories.data.length);
  const listCategories: Record<string, Example> = {
    categories: {
      summary: `GET ${base}/categories (first ${shown} of ${categories.meta.total} categories shown)`,
      value: firstItems(categories),
    },
  };

  const getBestInCategory: Record<string, Example> = {};
  const ranking = renderRankings(catalog, files).next();
  if (!ranking.done) {
    const value = bodyOf(ranking.value.body) as { data: unknown[]; meta: { category: string; total: number } };
    const n = Math.min(LIST_EXAMPLE_ITEMS, value.data.length);
    getBestInCategory.firstCategory = {
      summary: `GET ${base}/best/${value.meta.category} (first ${n} of ${value.meta.total} tools shown)`,
      value: firstItems(value),
    };
  }

  const search: Record<string, Example> = {};
  const word = firstNameWord(catalog.tools);
  if (word) {
    const q = word.slice(0, 4);
    const matches = toolsWithPrefix(catalog.tools, q);
    const n = Math.min(LIST_EXAMPLE_ITEMS, matches.length);
    search.prefix = {
      summary: `GET ${base}/search?q=${q} (first ${n} of ${matches.length} tools shown)`,
      value: {
        data: matches.slice(0, n).map((i) => toSummary(catalog.tools[i]!)),
        meta: { total: matches.length, limit: SEARCH_LIMIT },
      },
    };
  }

  const errorFiles = new Map<string, unknown>();
  for (const f of renderErrors(catalog, files)) errorFiles.set(f.path, bodyOf(f.body));
  const someTool = catalog.tools[0]?.slug ?? "acme";
  const beyond = catalog.tools.length + 1;
  // Each error's example request is the operations' description's; its body, the one this catalog builds.
  const errorExample = (id: ErrorId | ListErrorId): Example => {
    const path =
      id === "offset_out_of_range" ? fill(files.offsetOutOfRange, { filter: ALL_FILTER }) : fill(files.error, { id });
    const value = errorFiles.get(path);
    if (value === undefined) throw new Error(`no rendered error body at ${path}`);
    return { summary: fill(ERRORS[id].example, { base, tool: someTool, beyond }), value };
  };
  const errorIds = [...Object.keys(ROUTE_ERROR_STATUS), ...Object.keys(LIST_ERROR_STATUS)] as (ErrorId | ListErrorId)[];
  const errors = Object.fromEntries(errorIds.map((id) => [id, errorExample(id)])) as ApiExamples["errors"];
  const operations = { listSoftware, getSoftware, listCategories, getBestInCategory, searchSoftware: search };
  return { operations, errors };
}
