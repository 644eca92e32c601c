// Reads a built tree as { relative path → sha1 of bytes }, to compare trees exactly; or as { relative path → inode,
// mtime and size }, to tell that no file of it was written, replaced or removed.

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers/promises";
import { promisify } from "node:util";
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

/** Each file's inode, mtime and size (find: a few times faster than stat from JS): a file written in place or replaced
 *  changes one of them. */
export async function stampTree(dir: string): Promise<Map<string, string>> {
  const { stdout } = await promisify(execFile)("find", [dir, "-type", "f", "-printf", "%i %T@ %s %P\\n"], {
    maxBuffer: 1 << 30,
  });
  const out = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const m = /^(\S+ \S+ \S+) (.*)$/.exec(line);
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}
