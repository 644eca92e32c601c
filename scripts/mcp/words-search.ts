// search_software with several words ("Sparrow SMS"): the HTTP API takes one prefix (its search files are one per
// prefix), so several are answered here from the catalog's find index (catalog-index.ts: a build record over a build,
// the catalog body over a deployed API), matched as search matches names (S1), in the search answer's shape.
import { SEARCH_LIMIT } from "../api/runtime/route-table.ts";
import type { CatalogIndex } from "./catalog-index.ts";
import type { ApiAnswer, CatalogSource } from "./source.ts";

/** The search answer for these words (each 1 or more of a-z, 0-9), or the API's error answer for the catalog body. */
export function wordsSearch(
  catalog: CatalogIndex,
  source: CatalogSource,
  words: readonly string[],
): Promise<ApiAnswer> {
  return catalog.use(source, async (table) => {
    const matches = table.index.withEveryPrefix(words);
    const data = await table.summaries(matches.slice(0, SEARCH_LIMIT));
    return { status: 200, body: JSON.stringify({ data, meta: { total: matches.length, limit: SEARCH_LIMIT } }) };
  });
}
