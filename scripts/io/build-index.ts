// Writes the build's index of what it names (api/runtime/build-index.ts) into a working copy: every host asks it
// before reading a body. Replaced by a rename, never written into: the working copy's file may share its inode with
// the published build's (a hard-link clone).
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_INDEX_FILE, type BuildLayout, buildIndexText } from "../api/runtime/build-index.ts";
import type { Piece } from "../render/pieces.ts";
import type { PageList } from "../render/software-pages.ts";
import { withPath } from "./file-errors.ts";

export function writeBuildIndex(
  root: string,
  layout: BuildLayout,
  sizes: ReadonlyMap<string, number>,
  isServed: (path: string) => boolean,
  lists: readonly PageList[],
  /** each list's pieces, in `lists` order */
  pieces: readonly (readonly Piece[])[],
): void {
  const served = [...sizes].filter(([path]) => isServed(path));
  const text = buildIndexText(
    layout,
    served,
    lists.map((l, i) => ({
      filter: l.filter,
      category: l.category,
      lengths: l.items.map((item) => Buffer.byteLength(item)),
      pieces: pieces[i]!.map((p): [string, number] => [p.id, p.items]),
    })),
  );
  const path = join(root, BUILD_INDEX_FILE);
  try {
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
  } catch (e) {
    throw withPath(e, path);
  }
}
