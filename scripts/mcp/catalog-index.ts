// What find_software and several-word search read: one build's find index (model/find-index.ts) and the summaries of
// the tools at some of its positions. Kept between calls, so a catalog is parsed once per build, never per request.
//
// - A source that reads builds (a dist/, the Worker's own storage) gives the index as a build record, asked again on
//   every call with the build it holds (`unless`): unchanged, nothing is read. The summaries come from the API's own
//   list of every tool (GET /software?limit=L&offset=O), one page per run of positions within 100 of each other, so a
//   page of results reads a few small bodies and never the catalog. Every answer must come from the index's build: one
//   from another (a publication in between) and the call starts again on the new one.
// - A deployed API (no build records) gives the catalog body, GET /export/catalog.json, revalidated by its ETag on
//   every call (one request, a 304 when unchanged) and parsed once per ETag: the index is made from it, and the
//   summaries are its items cut to the summary's fields.
// Web APIs only: it runs in the Worker.
import { SoftwareSummary } from "../api/contract/response-schemas.ts";
import { etagOfBytes } from "../api/runtime/etag.ts";
import { MAX_LIMIT } from "../api/runtime/route-table.ts";
import { FIND_INDEX_FILE, FindIndex, type FindIndexTool, findIndexData } from "../model/find-index.ts";
import { listSoftwareTarget } from "./requests.ts";
import { type ApiAnswer, type CatalogSource, SourceUnavailable } from "./source.ts";

export const CATALOG_BODY_TARGET = "/export/catalog.json";

/** The summary's fields in the contract's order: a summary is a catalog body item cut to these. */
const SUMMARY_FIELDS = Object.keys(SoftwareSummary.shape);

export type Summary = Record<string, unknown>;

/** One build's tools as the tools read them. */
export interface ToolTable {
  index: FindIndex;
  /** the summaries of the tools at these positions (O1 order of every tool), in the order given */
  summaries(positions: readonly number[]): Promise<Summary[]>;
}

/** Thrown when an answer came from another build than the index's: the call starts again on the build published now. */
export class BuildChanged extends Error {}

/** How often a call starts again on a newer build before it gives up (three publications while it ran). */
const ATTEMPTS = 3;
/** List pages read at once for one call's summaries. */
const PAGES_AT_ONCE = 6;

type CatalogBodyItem = FindIndexTool & Record<string, unknown>;

export interface CatalogIndex {
  /** `work` over the table of the build answering now; the API's error answer when the catalog body is one */
  use(source: CatalogSource, work: (table: ToolTable) => Promise<ApiAnswer>): Promise<ApiAnswer>;
}

/** What one MCP server keeps between calls (one per source, or per Worker isolate): the last index read. */
export function createCatalogIndex(): CatalogIndex {
  let fromRecord: { build: string; index: FindIndex } | undefined;
  let fromBody: { etag: string; table: ToolTable } | undefined;

  async function recordTable(source: CatalogSource & Required<Pick<CatalogSource, "record">>): Promise<ToolTable> {
    const got = await source.record(FIND_INDEX_FILE, fromRecord ? { unless: fromRecord.build } : {});
    if (got === null)
      throw new SourceUnavailable(
        `the build has no ${FIND_INDEX_FILE}: it was built by another version; build again (npm run build)`,
      );
    if (got.text !== undefined) {
      try {
        fromRecord = { build: got.build, index: FindIndex.parse(got.text) };
      } catch (e) {
        throw new SourceUnavailable(`${FIND_INDEX_FILE}: ${(e as Error).message}; build again (npm run build)`);
      }
    }
    const { build, index } = fromRecord!;
    return { index, summaries: (positions) => pageSummaries(source, build, index, positions) };
  }

  async function bodyTable(source: CatalogSource): Promise<ToolTable | ApiAnswer> {
    const got = await source.get(CATALOG_BODY_TARGET, fromBody ? { ifNoneMatch: fromBody.etag } : {});
    if (got.status === 304 && fromBody) return fromBody.table;
    if (got.status !== 200) return got;
    const etag = got.etag ?? (await etagOfBytes(new TextEncoder().encode(got.body)));
    if (fromBody?.etag === etag) return fromBody.table;
    let items: CatalogBodyItem[];
    let categories: string[];
    try {
      const { data } = JSON.parse(got.body) as {
        data: { software: CatalogBodyItem[]; categories: { slug: string }[] };
      };
      items = data.software;
      categories = data.categories.map((c) => c.slug);
    } catch {
      throw new SourceUnavailable(`${CATALOG_BODY_TARGET} is not the catalog body`);
    }
    const index = new FindIndex(findIndexData(items, categories));
    const summaryOf = (i: number) => Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, items[i]![field]]));
    fromBody = { etag, table: { index, summaries: async (positions) => positions.map(summaryOf) } };
    return fromBody.table;
  }

  return {
    async use(source, work) {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const table = source.record
          ? await recordTable(source as Parameters<typeof recordTable>[0])
          : await bodyTable(source);
        if (!("index" in table)) return table;
        try {
          return await work(table);
        } catch (e) {
          if (!(e instanceof BuildChanged)) throw e;
        }
      }
      throw new SourceUnavailable("the catalog was republished while it was read, again and again: try again");
    },
  };
}

/**
 * The summaries at these positions, from the list of every tool: each page covers a run of positions less than 100
 * apart (the API's largest page), so names in order cost a page or two and scattered ones a small page each.
 */
async function pageSummaries(
  source: CatalogSource,
  build: string,
  index: FindIndex,
  positions: readonly number[],
): Promise<Summary[]> {
  const sorted = [...new Set(positions)].sort((a, b) => a - b);
  const pages: { offset: number; limit: number }[] = [];
  for (let k = 0; k < sorted.length; ) {
    const offset = sorted[k]!;
    while (k < sorted.length && sorted[k]! < offset + MAX_LIMIT) k++;
    pages.push({ offset, limit: sorted[k - 1]! - offset + 1 });
  }
  const found = new Map<number, Summary>();
  for (let p = 0; p < pages.length; p += PAGES_AT_ONCE) {
    await Promise.all(
      pages.slice(p, p + PAGES_AT_ONCE).map(async ({ offset, limit }) => {
        const answer = await source.get(listSoftwareTarget({ limit, offset }));
        if (answer.status !== 200 || (answer.build !== undefined && answer.build !== build)) throw new BuildChanged();
        const page = JSON.parse(answer.body) as { data: Summary[]; meta: { total: number } };
        if (page.meta.total !== index.count || page.data.length !== limit) throw new BuildChanged();
        page.data.forEach((summary, i) => {
          found.set(offset + i, summary);
        });
      }),
    );
  }
  return positions.map((p) => found.get(p)!);
}
