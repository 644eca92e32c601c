// Reads a built tree as { relative path → sha1 of bytes }, to compare trees exactly.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers/promises";
import fg from "fast-glob";

export async function hashTree(dir: string): Promise<Map<string, string>> {
  const files = (await fg("**/*", { cwd: dir, dot: true, onlyFiles: true })).sort();
  const out = new Map<string, string>();
  // Read synchronously, in batches between which the event loop runs (a server in the same process keeps
  // answering): the sample catalog has tens of thousands of small files, and fs/promises' readFile (open, stat,
  // read, close, each a trip through the thread pool) cost about three times the CPU.
  for (let i = 0; i < files.length; i += 256) {
    for (const f of files.slice(i, i + 256))
      out.set(
        f,
        createHash("sha1")
          .update(readFileSync(join(dir, f)))
          .digest("hex"),
      );
    await setImmediate();
  }
  return out;
}
