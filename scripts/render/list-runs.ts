// Each list of GET /software once, as both layouts of a build hold it (L1, L2): `runs/<filter>.run`, its items' JSON
// in list order joined by commas and nothing else, and `runs/<filter>.offsets`, where each item starts in the run
// (little-endian uint32, one entry per item and one past the end), so that a page is one slice of the run between
// its envelope, read by position. Build records: no host serves them by URL.
import { keyedPiecedFile, lazyFile, type OutputFile } from "./output.ts";
import type { PageList } from "./software-pages.ts";

/** Where the runs go in dist/, by filter (`all`, `category/seo`); outside every host's published roots. */
export const RUNS_DIR = "runs/";
export const runFile = (filter: string) => `${RUNS_DIR}${filter}.run`;
export const offsetsFile = (filter: string) => `${RUNS_DIR}${filter}.offsets`;
/** The filter of a run file's path, or null for any other path. */
export const filterOfRunFile = (path: string): string | null =>
  path.startsWith(RUNS_DIR) && path.endsWith(".run") ? path.slice(RUNS_DIR.length, -".run".length) : null;

/** A run's bytes: the items joined by commas. */
export const renderRun = (items: readonly string[]): string => items.join(",");

/** Items to a piece of a run as it is written: a write and a hash update for about 100 kB, not for each item. */
const RUN_ITEMS_PER_PIECE = 256;

/**
 * A run's bytes in consecutive pieces (renderRun's, cut between items): the writer hashes and writes them through one
 * small buffer, so no run is ever one string or one buffer. Held whole, a build kept every run as a string (a lazy
 * file remembers its body) beside its UTF-8 copy: at 103,528 tools about 110 MB of strings and as much again in
 * buffers, at the build's peak of memory.
 */
export function* runPieces(items: readonly string[]): Generator<string> {
  for (let at = 0; at < items.length; at += RUN_ITEMS_PER_PIECE)
    yield (at === 0 ? "" : ",") + items.slice(at, at + RUN_ITEMS_PER_PIECE).join(",");
}

/**
 * The offsets of a run of `items`: entry i is the byte where item i starts (entry 0 is 0), entry N the run's length
 * plus one, as if a comma followed the last item (an empty list has the one entry 0). Items o…e−1 are the bytes
 * [off[o], off[e] − 1).
 */
export function renderOffsets(items: readonly string[]): Uint8Array {
  const bytes = new Uint8Array((items.length + 1) * 4);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (let i = 0; i < items.length; i++) {
    at += Buffer.byteLength(items[i]!) + 1;
    view.setUint32((i + 1) * 4, at, true);
  }
  return bytes;
}

/** Reads an offsets file back: N+1 numbers for a list of N items. */
export function parseOffsets(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getUint32(i * 4, true));
}

/**
 * The run and offsets files of every list, rendered when a writer reads them. `keyOf(list)` names the list's items
 * (the same key, the same bytes): a rebuild keeps a list's files unread when its items did not change.
 */
export function listRunFiles(lists: readonly PageList[], keyOf: (list: number) => string): OutputFile[] {
  return lists.flatMap((list, i) => [
    keyedPiecedFile(runFile(list.filter), `run ${keyOf(i)}`, () => runPieces(list.items)),
    lazyFile(offsetsFile(list.filter), `offsets ${keyOf(i)}`, () => renderOffsets(list.items)),
  ]);
}
