// Each list of GET /software once, as the edge stores it: its items' JSON in list order joined by commas (the run),
// after one line saying its meta.category and each item's length in bytes. Pages are windows on these runs, so a
// publisher that has them needs no page file (an edge-only build writes none). Not served by any host.
import { lazyFile, type OutputFile } from "./output.ts";
import type { PageList } from "./software-pages.ts";

/** Where a list's run goes in dist/, by its filter (`all`, `category/seo`); outside every host's published roots. */
export const LIST_RUNS_DIR = "edge/lists/";
export const listRunFile = (filter: string) => `${LIST_RUNS_DIR}${filter}.run`;
/** The filter of a run file's path, or null for any other path. */
export const filterOfRunFile = (path: string): string | null =>
  path.startsWith(LIST_RUNS_DIR) && path.endsWith(".run") ? path.slice(LIST_RUNS_DIR.length, -".run".length) : null;

export interface ListRunHeader {
  category: string | null;
  lengths: number[];
}

/** A run file's bytes: the header line, then the items joined by commas. */
export function renderListRun(list: PageList): string {
  const header: ListRunHeader = { category: list.category, lengths: list.items.map((item) => Buffer.byteLength(item)) };
  return `${JSON.stringify(header)}\n${list.items.join(",")}`;
}

/** A run file read back: its header and the run's bytes (JSON text never holds a raw newline). */
export function parseListRun(bytes: Uint8Array): { header: ListRunHeader; run: Uint8Array } {
  const newline = bytes.indexOf(10);
  if (newline < 0) throw new Error("a list run file without its header line");
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, newline))) as ListRunHeader;
  return { header, run: bytes.subarray(newline + 1) };
}

/** The run files of a build, rendered when a writer reads them. */
export function listRunFiles(lists: PageList[]): OutputFile[] {
  return lists.map((list) => lazyFile(listRunFile(list.filter), undefined, () => renderListRun(list)));
}

/** Written by an edge-only build (`npm run build -- --edge-only`), which writes no list page: hosts that serve the
 *  tree itself refuse such a build, and a running server never switches to one. */
export const EDGE_ONLY_FILE = "edge/edge-only.json";
export const edgeOnlyFile = (): OutputFile =>
  lazyFile(EDGE_ONLY_FILE, undefined, () =>
    JSON.stringify({
      edgeOnly: true,
      note: "no list pages were written: publish this build with npm run upload:r2; npm run serve, nginx, validate and export need a build without --edge-only",
    }),
  );
