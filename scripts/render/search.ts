// GET /search?q=PREFIX (S1–S3): one body per prefix some name has, and the one empty answer every other valid q shares.
// A body is its matches' pre-serialized summaries joined. Every answer is a function of the summaries in catalog
// order (the names in them make the prefixes), so their one hash keys them all: a rebuild whose summaries did not
// change keeps every answer without joining or hashing one (a price edit changes none: summaries carry no price).
import { fill, layout, SEARCH_LIMIT } from "../api/runtime/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { toolPrefixIndex } from "../model/search-words.ts";
import { assertValid } from "../schemas/check.ts";
import { lazyFile, type OutputFile } from "./output.ts";
import type { Summaries } from "./tools.ts";

const SCHEMA = "responses/search-response.schema.json";

const searchBody = (items: string[], total: number) =>
  `{"data":[${items.join(",")}],"meta":{"total":${total},"limit":${SEARCH_LIMIT}}}`;

export function* renderSearch(catalog: Catalog, summaries: Summaries): Generator<OutputFile> {
  const files = layout(catalog.site.basePath);
  const tools = catalog.tools;
  const key = `search ${summaries.all()}`;
  for (const [q, matches] of toolPrefixIndex(tools)) {
    // Only when rendered: a kept answer costs its path and nothing else.
    const first = () => matches.slice(0, SEARCH_LIMIT).map((i) => tools[i]!.slug);
    const file = lazyFile(
      fill(files.search, { q }),
      key,
      () =>
        searchBody(
          first().map((slug) => summaries.json.get(slug)!),
          matches.length,
        ),
      // The items are checked once each with the list pages' check; the envelope here.
      () => {
        for (const slug of first()) summaries.check(slug);
        assertValid(SCHEMA, { data: [], meta: { total: matches.length, limit: SEARCH_LIMIT } }, `search ${q}`);
      },
    );
    yield Object.assign(file, { target: `${catalog.site.basePath}/search?q=${q}` });
  }
  const none = { data: [], meta: { total: 0, limit: SEARCH_LIMIT } };
  yield {
    path: files.searchNone,
    body: searchBody([], 0),
    check: () => void assertValid(SCHEMA, none, "search with no match"),
  };
}
