// The pool of page writers: list pages are written in worker threads (page-worker.ts) while the main thread writes
// the small files, or inline when there are few; their stats are summed list by list.
import { availableParallelism } from "node:os";
import { cachedCommandBundle } from "../cli/bundle-cache.mjs";
import { type PageJob, type PageStats, writePageUnits } from "./page-units.ts";

/** Below this many pages a worker's start-up costs more than it saves. */
const INLINE_PAGES = 20_000;

/** Pages in worker threads (so the main thread writes the small files meanwhile), or inline when there are few. */
export async function writePages(job: PageJob, onProgress?: (written: number) => void): Promise<PageStats> {
  const pageCount = job.units.reduce(
    (n, u) => n + (u.offsets === "all" ? job.lists[u.list]!.items.length + 1 : u.offsets.length),
    0,
  );
  // Plain writes are bound by the kernel's file creation: a second writer doubled sys time and gained no wall time
  // (n = 1,000: 32.8 s with one worker, 33.0 s with two). Compression is CPU work, and there every core pays.
  const inline = pageCount <= INLINE_PAGES;
  const workers = Math.min(job.compress ? availableParallelism() : 1, Math.ceil(pageCount / INLINE_PAGES));
  let stats: PageStats[];
  if (inline) stats = [writePageUnits(job, onProgress)];
  else {
    const entry = await pageWorkerEntry();
    // Loaded here: worker_threads cost every build ~5 ms of start-up, and a small rebuild starts no worker.
    const { Worker } = await import("node:worker_threads");
    // Round-robin over (list, limit) units balances bytes when there are several workers.
    const shares = Array.from({ length: workers }, (_, w) => job.units.filter((_, i) => i % workers === w));
    const progress = new Array<number>(workers).fill(0);
    stats = await Promise.all(
      shares.map(
        (units, w) =>
          new Promise<PageStats>((resolve, reject) => {
            // Page pieces are short-lived garbage: a small young generation keeps each worker's memory flat.
            const worker = new Worker(entry, {
              workerData: { ...job, units },
              resourceLimits: { maxYoungGenerationSizeMb: 8 },
            });
            worker.on(
              "message",
              (m: {
                progress?: number;
                done?: PageStats;
                failed?: { message: string; code?: string; path?: string };
              }) => {
                if (m.progress !== undefined) {
                  progress[w] = m.progress;
                  onProgress?.(progress.reduce((a, b) => a + b, 0));
                }
                if (m.done) resolve(m.done);
                // A file system error keeps its code and path across the thread boundary (ENOSPC names the file).
                if (m.failed)
                  reject(Object.assign(new Error(m.failed.message), { code: m.failed.code, path: m.failed.path }));
              },
            );
            worker.on("error", reject);
            worker.on("exit", (code) => code !== 0 && reject(new Error(`page writer exited with code ${code}`)));
          }),
      ),
    );
  }
  const perList: PageStats["perList"] = {};
  for (const s of stats)
    for (const [list, d] of Object.entries(s.perList)) {
      const sum = (perList[Number(list)] ??= { files: 0, bytes: 0 });
      sum.files += d.files;
      sum.bytes += d.bytes;
    }
  return stats.reduce((a, s) => ({
    written: a.written + s.written,
    created: a.created + s.created,
    writtenBytes: a.writtenBytes + s.writtenBytes,
    removedBytes: a.removedBytes + s.removedBytes,
    deleted: a.deleted + s.deleted,
    perList,
  }));
}

/**
 * What a page writer thread runs: the cached bundle of page-worker.ts, as the server's cluster workers do (a thread
 * that loads tsx's hooks instead costs a build ~30 MiB more peak memory); through tsx when no bundle can be made.
 */
async function pageWorkerEntry(): Promise<URL | string> {
  return cachedCommandBundle("scripts/io/page-worker.ts").catch(() => new URL("./page-worker.mjs", import.meta.url));
}
