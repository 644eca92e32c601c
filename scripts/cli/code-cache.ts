// Loads a CommonJS file of the cache folder (a generated validator) with V8's code cache kept beside it: compiling
// the two validators a one-tool rebuild needs, and the functions they call, cost it about 15 ms at every run. V8
// checks the cache against the source and its own version and flags, and compiles anew when it does not match.
import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";
import { writeCacheFile } from "./project-cache.mjs";

/** The exports of the CommonJS module at `path` (which must not change while this process runs). */
export function requireWithCodeCache(path: string): unknown {
  const cachePath = `${path}.v8-code-cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    // none yet
  }
  const script = new Script(Module.wrap(readFileSync(path, "utf8")), { filename: path, cachedData });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(path),
    module,
    path,
    dirname(path),
  );
  if (cachedData === undefined || script.cachedDataRejected) {
    if (toWrite.size === 0) process.once("exit", saveCodeCaches);
    toWrite.set(cachePath, script);
  }
  return module.exports;
}

/** Code caches to write at exit: by then they also hold the functions compiled while the command ran. */
const toWrite = new Map<string, Script>();

/** Writes the code caches of the modules loaded without one (at exit; tests call it directly). */
export function saveCodeCaches(): void {
  for (const [path, script] of toWrite) {
    try {
      writeCacheFile(path, script.createCachedData());
    } catch {
      // an unwritable cache folder: compiled again next time
    }
  }
  toWrite.clear();
}
