// GET /search?q=PREFIX (S1–S3): one body per prefix some name has, and the one empty answer every other valid q shares.
// A body is its matches' pre-serialized summaries joined. Every answer, and which answers there are, is a function of
// the summaries in catalog order (the names in them make the prefixes), so one hash of them keys them all as a group
// (the unfiltered list's pieces name exactly those, in that order): a rebuild whose summaries did not change keeps
// every answer without making, joining or hashing one (a price edit changes none: summaries carry no price).
import { fill, type RouteLayout, SEARCH_LIMIT } from "../api/runtime/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { toolPrefixIndex } from "../model/search-words.ts";
import { assertValid } from "../schemas/check.ts";
import { lazyFile, type OutputFile, type OutputGroup } from "./output.ts";
import type { Summaries } from "./software.ts";

const SCHEMA = "responses/search-response.schema.json";

const searchBody = (items: string[], total: number) =>
  `{"data":[${items.join(",")}],"meta":{"total":${total},"limit":${SEARCH_LIMIT}}}`;

/** The one answer every valid q no name has shares (S3): a mirror's copy makes it, as the build does. */
export const emptySearchBody = (): string => searchBody([], 0);

/**
 * The answers some name has, as one group (their key names every summary and where the answers go), and the empty one.
 * `summariesKey`: a hash of every summary's JSON in catalog order.
 */
export function renderSearch(
  catalog: Catalog,
  summaries: Summaries,
  files: RouteLayout,
  summariesKey: string,
): { answers: OutputGroup; none: OutputFile } {
  const [before, after] = files.search.split("{q}") as [string, string];
  const targetOf = (path: string) =>
    `${catalog.site.basePath}/search?q=${path.slice(before.length, path.length - after.length)}`;
  const key = `search ${files.search} ${summariesKey}`;
  const none = { data: [], meta: { total: 0, limit: SEARCH_LIMIT } };
  return {
    answers: { key, targetOf, files: () => answerFiles(catalog, summaries, files.search, key, targetOf) },
    none: {
      path: files.searchNone,
      body: emptySearchBody(),
      check: () => void assertValid(SCHEMA, none, "search with no match"),
    },
  };
}

function* answerFiles(
  catalog: Catalog,
  summaries: Summaries,
  template: string,
  key: string,
  targetOf: (path: string) => string,
): Generator<OutputFile> {
  const tools = catalog.tools;
  for (const [q, matches] of toolPrefixIndex(tools)) {
    const first = () => matches.slice(0, SEARCH_LIMIT).map((i) => tools[i]!.slug);
    const path = fill(template, { q });
    yield lazyFile(
      path,
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
      targetOf(path),
    );
  }
}
