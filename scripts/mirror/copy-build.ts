// What makes a mirror's copy a runs build of this project, beside the bodies, shards and pieces it fetched (design 48
// section 7): the route table from this project's code with the API's base path and the origin's Cache-Control, the
// error bodies and the empty search answer it makes, each list's run joined from its pieces with its offsets, and the
// build's index naming all of it, so that `npm run serve -- --dist COPY` answers from it and `npm run export` turns
// it into a page tree. Nothing here fetches or checks a hash: update-mirror.ts does.

import { buildRouteTable, cacheControl } from "../api/contract/build-route-table.ts";
import { errorBodies, offsetOutOfRangeBody } from "../api/contract/error-bodies.ts";
import { buildIndexText } from "../api/runtime/build-index.ts";
import {
  ALL_FILTER,
  categoryFilter,
  ERROR_STATUS,
  type ErrorId,
  fill,
  HOST_ERROR_STATUS,
  type HostErrorId,
  layout,
  type RouteTable,
} from "../api/runtime/route-table.ts";
import { UserError } from "../cli/command.ts";
import type { Site } from "../model/derive.ts";
import { emptySearchBody } from "../render/search.ts";

/** The site settings' defaults (content/site.json): the Cache-Control when the origin sends none. */
const DEFAULT_CACHE = { cacheMaxAge: 300, cacheStaleWhileRevalidate: 0 };

/**
 * The copy's route table: this project's, for the API's base path, with the Cache-Control the origin answered with
 * (so the copy's headers are the origin's), and no docs page (the hash tree does not name it: the copy has none).
 */
export function copyRouteTable(basePath: string, originCacheControl: string | null): RouteTable {
  // The table is made of these three settings of the site alone (the others name the site's pages).
  const table = buildRouteTable({ basePath, ...DEFAULT_CACHE } as Site);
  table.headers.success["Cache-Control"] = originCacheControl ?? cacheControl(DEFAULT_CACHE);
  return { ...table, assets: [] };
}

/** A list's filter (`all`, `category/seo`) from its target in the tree (`/v1/software`, `/v1/software?category=seo`). */
export function filterOfListTarget(basePath: string, target: string, category: string | null): string {
  const expected = `${basePath}/software${category === null ? "" : `?category=${category}`}`;
  if (target !== expected || (category !== null && !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(category)))
    throw new UserError(`the hash tree lists ${JSON.stringify(target.slice(0, 200))}, which is no list of this API`);
  return category === null ? ALL_FILTER : categoryFilter(category);
}

/** The files the copy makes rather than fetches, by path: every error body, each list's offset_out_of_range, and the
 *  empty search answer. */
export function madeFiles(table: RouteTable, lists: { filter: string; category: string | null; total: number }[]) {
  const files = layout(table.basePath);
  const made = new Map<string, string>();
  const bodies = errorBodies(table.basePath);
  for (const id of [...Object.keys(ERROR_STATUS), ...Object.keys(HOST_ERROR_STATUS)] as (ErrorId | HostErrorId)[])
    made.set(fill(files.error, { id }), bodies[id]);
  for (const { filter, category, total } of lists)
    made.set(fill(files.offsetOutOfRange, { filter }), offsetOutOfRangeBody(category, total));
  made.set(files.searchNone, emptySearchBody());
  return made;
}

/** Where each item of a run ends: the run read as the items of a JSON array (commas outside strings and nesting). */
export function itemLengths(run: Uint8Array, what: string): number[] {
  const lengths: number[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < run.length; i++) {
    const c = run[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 0) {
      lengths.push(i - start);
      start = i + 1;
    }
  }
  if (depth !== 0 || inString) throw new UserError(`${what} is not a list of JSON items`);
  if (run.length > 0) lengths.push(run.length - start);
  return lengths;
}

/** The offsets file of a run of items of `lengths` (as render/list-runs.ts writes it: N+1 uint32 LE). */
export function offsetsOf(lengths: readonly number[]): Uint8Array {
  const bytes = new Uint8Array((lengths.length + 1) * 4);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) view.setUint32((i + 1) * 4, (at += lengths[i]! + 1), true);
  return bytes;
}

/** The copy's build-index.json: a runs build naming every served file it holds and every list. */
export function copyIndexText(
  files: Iterable<[path: string, size: number]>,
  lists: { filter: string; category: string | null; lengths: number[]; pieces: [string, number][] }[],
): string {
  return buildIndexText("runs", files, lists);
}
