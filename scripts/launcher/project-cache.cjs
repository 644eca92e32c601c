// The project's cache folder, node_modules/.cache/msapi/ (where tools keep caches by convention), and the one way
// files are written into it. Plain CommonJS: the launcher uses it before any TypeScript loader exists (launch.cjs
// says why CommonJS).
const { mkdirSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const { dirname, join } = require("node:path");

const PROJECT_ROOT = join(__dirname, "../../");
const CACHE_DIR = join(PROJECT_ROOT, "node_modules", ".cache", "msapi");

/** Writes a file of the cache whole or not at all: another command may be reading it. */
function writeCacheFile(path, data) {
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

module.exports = { PROJECT_ROOT, CACHE_DIR, writeCacheFile };
