// The only code that writes dist/: every file goes to a temporary folder beside it, which then replaces dist/
// in one rename. A failed build removes its temporary folder and leaves the previous dist/ as it was.
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { OutputFile } from "../render/output.ts";

export interface WriteSummary {
  files: number;
  bytes: number;
}

const CONCURRENCY = 64;

export async function writeOutput(
  outDir: string,
  files: Iterable<OutputFile> | AsyncIterable<OutputFile>,
  onProgress?: (written: number) => void,
): Promise<WriteSummary> {
  const tmp = `${outDir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const summary: WriteSummary = { files: 0, bytes: 0 };
  const madeDirs = new Set<string>();
  const pending = new Set<Promise<void>>();
  const seen = new Set<string>();
  try {
    for await (const file of files) {
      if (seen.has(file.path)) throw new Error(`two outputs write ${file.path}`);
      seen.add(file.path);
      const target = join(tmp, file.path);
      const dir = dirname(target);
      if (!madeDirs.has(dir)) {
        await mkdir(dir, { recursive: true });
        madeDirs.add(dir);
      }
      const p: Promise<void> = writeFile(target, file.body).then(() => {
        pending.delete(p);
      });
      pending.add(p);
      summary.files++;
      summary.bytes += typeof file.body === "string" ? Buffer.byteLength(file.body) : file.body.byteLength;
      if (summary.files % 5000 === 0) onProgress?.(summary.files);
      if (pending.size >= CONCURRENCY) await Promise.race(pending);
    }
    await Promise.all(pending);
  } catch (e) {
    await Promise.allSettled(pending);
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
  // Swap: the old tree moves aside, the new one takes its name, the old one is removed.
  const old = `${outDir}.old-${process.pid}`;
  const hadOld = await rename(outDir, old).then(
    () => true,
    (e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return false;
      throw e;
    },
  );
  await rename(tmp, outDir);
  if (hadOld) await rm(old, { recursive: true, force: true });
  return summary;
}
