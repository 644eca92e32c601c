// Each page list's files and bytes, as the manifest records them: an incremental build knows the tree's size without
// walking it. A full build counts what its pages wrote; an incremental one, what a list held before plus the change.
import type { PageList } from "../render/software-pages.ts";
import type { Manifest } from "./manifest.ts";
import type { PageStats } from "./page-units.ts";

/** A full build: each list holds what its pages wrote. Fills `next`. */
export function countWrittenLists(lists: PageList[], next: Manifest["lists"], perList: PageStats["perList"]): void {
  for (const [i, l] of lists.entries()) Object.assign(next[l.filter]!, perList[i]);
}

/**
 * An incremental build: lists written whole (`fresh`) hold what was written, the others what they held plus the
 * change; a list that no longer exists removed all it held. Fills `next`; returns the change of the lists' part of
 * the tree and how many files went.
 */
export function countChangedLists(
  lists: PageList[],
  next: Manifest["lists"],
  previous: Manifest["lists"],
  fresh: ReadonlySet<string>,
  perList: PageStats["perList"],
): { files: number; bytes: number; removedFiles: number } {
  let listFilesDelta = 0;
  let listBytesDelta = 0;
  let removedFiles = 0;
  for (const [index, list] of lists.entries()) {
    const old = previous[list.filter];
    const change = perList[index] ?? { files: 0, bytes: 0 };
    const counted = next[list.filter]!;
    counted.files = (fresh.has(list.filter) || !old ? 0 : old.files) + change.files;
    counted.bytes = (fresh.has(list.filter) || !old ? 0 : old.bytes) + change.bytes;
    listFilesDelta += counted.files - (old?.files ?? 0);
    listBytesDelta += counted.bytes - (old?.bytes ?? 0);
    if (old && fresh.has(list.filter)) removedFiles += Math.max(0, old.files - counted.files);
  }
  for (const [filter, old] of Object.entries(previous)) {
    if (next[filter]) continue;
    listFilesDelta -= old.files;
    listBytesDelta -= old.bytes;
    removedFiles += old.files;
  }
  return { files: listFilesDelta, bytes: listBytesDelta, removedFiles };
}
