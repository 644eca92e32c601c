// A build's index of what it names (api/runtime/build-index.ts), read from its folder by the hosts that serve it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_INDEX_FILE, BuildIndex } from "../api/runtime/build-index.ts";
import { UserError } from "../cli/command.ts";

/**
 * The index of the build in `root`; one line when it has none or one of another format (built by another version).
 * `pageTemplate`: the build's layout's list page (route-table.ts), computed by the host that reads the build.
 */
export function readBuildIndex(root: string, pageTemplate: string): BuildIndex {
  let text: string;
  try {
    text = readFileSync(join(root, BUILD_INDEX_FILE), "utf8");
  } catch {
    throw new UserError(
      `${root} has no ${BUILD_INDEX_FILE}: it was built by another version; build again (npm run build)`,
    );
  }
  try {
    return BuildIndex.parse(text, pageTemplate);
  } catch {
    throw new UserError(`${join(root, BUILD_INDEX_FILE)} is of another format: build again (npm run build)`);
  }
}
