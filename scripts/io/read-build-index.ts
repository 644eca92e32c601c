// A build's index of what it names (api/runtime/build-index.ts), read from its folder by the hosts that serve it.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { BUILD_INDEX_FILE, BuildIndex, type BuildLayout } from "../api/runtime/build-index.ts";
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

/** The layout the build in `root` names, from the first bytes of its index (written first: buildIndexText), or
 *  undefined when it has no index. */
export function layoutOf(root: string): BuildLayout | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(join(root, BUILD_INDEX_FILE), "r");
    const buffer = Buffer.alloc(64);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return /"layout":"(pages|runs)"/.exec(buffer.toString("latin1", 0, read))?.[1] as BuildLayout | undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
