// The project's cache folder, node_modules/.cache/msapi/ (where tools keep caches by convention), and the one way
// files are written into it. Plain JavaScript: the launcher uses it before any TypeScript loader exists.
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CACHE_DIR = join(PROJECT_ROOT, "node_modules", ".cache", "msapi");

/** Writes a file of the cache whole or not at all: another command may be reading it. */
export function writeCacheFile(path, data) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    // A full disk leaves no half-written file behind.
    rmSync(tmp, { force: true });
    throw e;
  }
}
