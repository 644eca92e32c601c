// An edge-only build (`npm run build -- --edge-only`) has every body but the list pages, which only the R2 upload
// can do without (it stores each list once and the Worker writes its pages). What serves or checks the tree itself
// asks here first and refuses such a build with one line.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../cli/command.ts";
import { EDGE_ONLY_FILE } from "../render/list-runs.ts";

export const isEdgeOnly = (distDir: string): boolean => existsSync(join(distDir, EDGE_ONLY_FILE));

/** Throws one line when `distDir` is an edge-only build; `what` needs the list pages (`npm run serve`); `shown`: the
 *  folder as the user named it. */
export function assertFullBuild(distDir: string, what: string, shown = distDir): void {
  if (isEdgeOnly(distDir))
    throw new UserError(
      `${shown} is an edge-only build (no list pages): ${what} needs them; build again without --edge-only (npm run build)`,
    );
}
