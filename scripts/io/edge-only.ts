// A runs build (`npm run build -- --layout runs`, or its alias `--edge-only`) holds every body but the list pages, each
// list once as its run (L2); its index (build-index.json) says so. What serves or checks the tree itself and cannot
// answer pages from runs yet asks here first and refuses such a build with one line.
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { BUILD_INDEX_FILE, type BuildLayout } from "../api/runtime/build-index.ts";
import { UserError } from "../cli/command.ts";

/** The layout the build in `distDir` names, from the first bytes of its index (written first: buildIndexText), or
 *  undefined when it has no index. */
export function layoutOf(distDir: string): BuildLayout | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(join(distDir, BUILD_INDEX_FILE), "r");
    const buffer = Buffer.alloc(64);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const layout = /"layout":"(pages|runs)"/.exec(buffer.toString("latin1", 0, read))?.[1];
    return layout as BuildLayout | undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export const isEdgeOnly = (distDir: string): boolean => layoutOf(distDir) === "runs";

/** Throws one line when `distDir` is a runs build; `what` needs the list pages (`npm run serve`); `shown`: the
 *  folder as the user named it. */
export function assertFullBuild(distDir: string, what: string, shown = distDir): void {
  if (isEdgeOnly(distDir))
    throw new UserError(
      `${shown} is a runs-layout build (no list pages): ${what} needs them; build again with --layout pages (npm run build)`,
    );
}
