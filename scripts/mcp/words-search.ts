// search_software with several words ("Sparrow SMS"): the HTTP API takes one prefix (its search files are one per
// prefix), so several are answered here from the catalog body (/export/catalog.json), the whole catalog in one request. The body is kept
// with its ETag and revalidated on every search (If-None-Match over the network; the bytes' own ETag from a build),
// so a rebuild or a new deployment is seen at once and an unchanged catalog is parsed once.

import { SoftwareSummary } from "../api/contract/response-schemas.ts";
import { etagOf } from "../api/etag-node.ts";
import { SEARCH_LIMIT } from "../api/runtime/route-table.ts";
import { toolsWithEveryPrefix } from "../model/search-words.ts";
import { type ApiAnswer, type CatalogSource, SourceUnavailable } from "./source.ts";

export const CATALOG_BODY_TARGET = "/export/catalog.json";

/** The summary's fields in the contract's order: a search item is the catalog body's item cut to these. */
const SUMMARY_FIELDS = Object.keys(SoftwareSummary.shape);

type CatalogBodyItem = Record<string, unknown> & { name: string };

export interface WordsSearch {
  /** the search answer for these words (each 1 or more of a-z, 0-9), or the API's error answer for the catalog body */
  answer(words: readonly string[]): Promise<ApiAnswer>;
}

export function createWordsSearch(source: CatalogSource): WordsSearch {
  let cached: { etag: string; tools: CatalogBodyItem[] } | undefined;

  async function catalog(): Promise<CatalogBodyItem[] | ApiAnswer> {
    const got = await source.get(CATALOG_BODY_TARGET, cached ? { ifNoneMatch: cached.etag } : {});
    if (got.status === 304 && cached) return cached.tools;
    if (got.status !== 200) return got;
    const etag = got.etag ?? etagOf(Buffer.from(got.body));
    if (cached?.etag === etag) return cached.tools;
    let tools: CatalogBodyItem[];
    try {
      tools = (JSON.parse(got.body) as { data: { software: CatalogBodyItem[] } }).data.software;
    } catch {
      throw new SourceUnavailable(`${CATALOG_BODY_TARGET} is not the catalog body`);
    }
    cached = { etag, tools };
    return tools;
  }

  return {
    async answer(words) {
      const tools = await catalog();
      if (!Array.isArray(tools)) return tools;
      const matches = toolsWithEveryPrefix(tools, words);
      const data = matches
        .slice(0, SEARCH_LIMIT)
        .map((i) => Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, tools[i]![field]])));
      return { status: 200, body: JSON.stringify({ data, meta: { total: matches.length, limit: SEARCH_LIMIT } }) };
    },
  };
}
