// Reads a built tree as { relative path → sha1 of bytes }, to compare trees exactly.

import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";

export async function hashTree(dir: string): Promise<Map<string, string>> {
  const files = (await fg("**/*", { cwd: dir, dot: true, onlyFiles: true })).sort();
  const out = new Map<string, string>();
  // Bounded batches: the sample catalog has tens of thousands of files.
  for (let i = 0; i < files.length; i += 256) {
    const batch = files.slice(i, i + 256);
    const hashes = await Promise.all(
      batch.map(async (f) =>
        createHash("sha1")
          .update(await readFile(join(dir, f)))
          .digest("hex"),
      ),
    );
    for (const [k, f] of batch.entries()) out.set(f, hashes[k]!);
  }
  return out;
}
