// The project's cache folder, node_modules/.cache/msapi/ (where tools keep caches by convention), and the one way
// files are written into it. Plain CommonJS: the launcher uses it before any TypeScript loader exists (launch.cjs
// says why CommonJS).
const { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } = require("node:fs");
const { dirname, join } = require("node:path");

const PROJECT_ROOT = join(__dirname, "../../");
const CACHE_DIR = join(PROJECT_ROOT, "node_modules", ".cache", "msapi");

/**
 * Writes a file of the cache whole or not at all: another command may be reading it. `data`: its bytes, or its parts
 * in order (each made when it is written, so a large file is never held whole).
 * @param {string} path
 * @param {string | Uint8Array | Iterable<Uint8Array>} data
 */
function writeCacheFile(path, data) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    if (typeof data === "string" || data instanceof Uint8Array) writeFileSync(tmp, data);
    else {
      const fd = openSync(tmp, "w");
      try {
        for (const part of data)
          for (let at = 0; at < part.byteLength; ) at += writeSync(fd, part, at, part.byteLength - at);
      } finally {
        closeSync(fd);
      }
    }
    renameSync(tmp, path);
  } catch (e) {
    // A full disk leaves no half-written file behind.
    rmSync(tmp, { force: true });
    throw e;
  }
}

module.exports = { PROJECT_ROOT, CACHE_DIR, writeCacheFile };
