// The pool of page writers: list pages are written in threads (page-writer-thread.ts) while the main thread writes
// the small files, or inline when there are few; their stats are summed list by list.
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { cachedCommandBundle, freshCommandBundle } from "../launcher/bundle-cache.cjs";
import { type PageJob, type PageStats, writePageUnits } from "./page-units.ts";

/** Below this many pages a thread's start-up costs more than it saves. */
const INLINE_PAGES = 20_000;

/** Pages in threads (so the main thread writes the small files meanwhile), or inline when there are few.
 *  `started`: threads started ahead of the job (startPageWriters), used before any other is started. */
export async function writePages(
  job: PageJob,
  onProgress?: (written: number) => void,
  started?: PageWriters,
): Promise<PageStats> {
  const pageCount = job.units.reduce(
    (n, u) => n + (u.offsets === "all" ? job.lists[u.list]!.items.length + 1 : u.offsets.length),
    0,
  );
  // Plain writes are bound by the kernel's file creation: a second writer added system time and gained no wall
  // time. Compression is CPU work, and there every core pays.
  const inline = pageCount <= INLINE_PAGES;
  const threadCount = Math.min(job.compress ? availableParallelism() : 1, Math.ceil(pageCount / INLINE_PAGES));
  let stats: PageStats[];
  if (inline) stats = [writePageUnits(job, onProgress)];
  else {
    const threads = started?.take(threadCount) ?? [];
    while (threads.length < threadCount) threads.push(PageWriter.start());
    // Round-robin over (list, limit) units balances bytes when there are several threads.
    const progress = new Array<number>(threadCount).fill(0);
    stats = await Promise.all(
      threads.map((thread, w) =>
        thread.write({ ...job, units: job.units.filter((_, i) => i % threadCount === w) }, (written) => {
          progress[w] = written;
          onProgress?.(progress.reduce((a, b) => a + b, 0));
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

/** Page writer threads started before their job is known, so that their start-up (a tenth of a second) overlaps the
 *  build's own work. Idle, they never keep the process alive; `close` stops those no job took. */
export class PageWriters {
  private readonly idle: PageWriter[];
  constructor(count: number) {
    this.idle = Array.from({ length: count }, () => PageWriter.start());
  }
  take(count: number): PageWriter[] {
    return this.idle.splice(0, count);
  }
  close(): void {
    for (const thread of this.idle.splice(0)) thread.stop();
  }
}

/** The threads a build that writes whole lists will use: one (page writing is bound by the kernel). */
export const startPageWriters = () => new PageWriters(1);

type ThreadMessage = {
  progress?: number;
  done?: PageStats;
  failed?: { message: string; code?: string; path?: string };
};

/** One page writer thread (page-writer-thread.ts), started at once; it waits for its one job. */
class PageWriter {
  private failure: Error | undefined;
  private constructor(private readonly thread: Promise<Worker>) {
    // Failures before a job is given (a bundle that cannot load) are kept for write() to report.
    thread.then(
      (thread) =>
        thread
          .on("error", (e) => (this.failure ??= e))
          .on("exit", (code) => (this.failure ??= new Error(`page writer exited with code ${code}`))),
      (e: Error) => (this.failure ??= e),
    );
  }

  static start(): PageWriter {
    // At once when the bundle is ready: a build started ahead runs synchronous work next, and would hold back a
    // start that waited for a promise until it yields.
    const ready = freshCommandBundle(PAGE_WRITER_THREAD);
    return new PageWriter(ready ? Promise.resolve(newThread(ready)) : pageWriterThreadEntry().then(newThread));
  }

  async write(job: PageJob, onProgress: (written: number) => void): Promise<PageStats> {
    const thread = await this.thread;
    return new Promise<PageStats>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      thread.ref();
      thread.on("message", (m: ThreadMessage) => {
        if (m.progress !== undefined) onProgress(m.progress);
        if (m.done) resolve(m.done);
        // A file system error keeps its code and path across the thread boundary (ENOSPC names the file).
        if (m.failed) reject(Object.assign(new Error(m.failed.message), { code: m.failed.code, path: m.failed.path }));
      });
      thread.on("error", reject);
      // After its answer, an exit changes nothing; before it, it is a failure.
      thread.on("exit", (code) => reject(new Error(`page writer exited with code ${code}`)));
      thread.postMessage(job);
    });
  }

  stop(): void {
    this.thread.then((thread) => thread.terminate()).catch(() => undefined);
  }
}

/** What a page writer thread runs, from the project's root: bundled as CommonJS (so: no top-level await). */
export const PAGE_WRITER_THREAD = "scripts/io/page-writer-thread.ts";

/**
 * What a page writer thread runs: the cached bundle of page-writer-thread.ts, as the server's processes do (a thread
 * that loads tsx's hooks instead adds that thread's memory to a build's peak); through tsx when no bundle can be made.
 */
async function pageWriterThreadEntry(): Promise<URL | string> {
  return cachedCommandBundle(PAGE_WRITER_THREAD).catch(() => new URL("./page-writer-thread.mjs", import.meta.url));
}

function newThread(entry: URL | string): Worker {
  // Loaded here, synchronously: worker_threads would add to every build's start-up, and a small rebuild starts none.
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
  // Page pieces are short-lived garbage: a small young generation keeps each thread's memory flat.
  const thread = new Worker(entry, { resourceLimits: { maxYoungGenerationSizeMb: 8 } });
  thread.unref();
  return thread;
}
