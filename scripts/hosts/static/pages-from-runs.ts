// The list pages of a runs build, for a static copy (a file host needs a file per page): each list's items read back
// from its run, cut where the build's index says, then written by the page writer threads exactly as a pages build
// writes them (io/page-units.ts, render/software-pages.ts), so the copy is byte for byte a pages build's.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BuildIndex } from "../../api/runtime/build-index.ts";
import { MAX_LIMIT } from "../../api/runtime/route-table.ts";
import { UserError } from "../../cli/command.ts";
import type { PageStats, PageUnit } from "../../io/page-units.ts";
import { writePages } from "../../io/page-writers.ts";
import { runFile } from "../../render/list-runs.ts";
import type { PageList } from "../../render/software-pages.ts";

/** Each list of the build with its items, read from its run: one line when a run is not the one the index names. */
export function listsOfRuns(root: string, index: BuildIndex): PageList[] {
  return index.allLists().map((list) => {
    const file = runFile(list.filter);
    let run: Buffer;
    try {
      run = readFileSync(join(root, file));
    } catch (e) {
      throw new UserError(`${join(root, file)} cannot be read (${(e as NodeJS.ErrnoException).code}): build again`);
    }
    if (run.byteLength !== list.runLength)
      throw new UserError(
        `${join(root, file)} holds ${run.byteLength} bytes where the build's index says ${list.runLength}: build again`,
      );
    const items = Array.from({ length: list.total }, (_, i) => {
      const { start, length } = list.slice(1, i);
      return run.toString("utf8", start, start + length);
    });
    return { filter: list.filter, category: list.category, items };
  });
}

/** The pages to write: every limit at every offset, or with `aligned` only those limits at their multiples. */
export function pageUnitsOf(lists: PageList[], aligned?: readonly number[]): PageUnit[] {
  return lists.flatMap((list, i) =>
    (aligned ?? Array.from({ length: MAX_LIMIT }, (_, l) => l + 1)).map(
      (limit): PageUnit => ({
        list: i,
        limit,
        offsets: aligned
          ? Array.from({ length: Math.floor(list.items.length / limit) + 1 }, (_, k) => k * limit)
          : "all",
        replace: false,
      }),
    ),
  );
}

/** Writes the pages of `lists` (listsOfRuns) into `out`, which holds none yet. */
export function writePagesOf(
  lists: PageList[],
  out: string,
  pageTemplate: string,
  aligned?: readonly number[],
): Promise<PageStats> {
  return writePages({ root: out, pageTemplate, lists, units: pageUnitsOf(lists, aligned), compress: false });
}
