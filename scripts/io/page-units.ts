// Writes list pages, synchronously: the code a worker thread runs (and the main thread, for small jobs).
// A page goes to the kernel as its pieces (writev), never concatenated, unless it is compressed.
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writevSync } from "node:fs";
import { dirname, join } from "node:path";
import { fill } from "../render/route-table.ts";
import { PageRenderer, type PageList } from "../render/software-pages.ts";
import { siblingPaths, siblingsOf } from "./encodings.ts";
import type { OffsetPlan } from "./manifest.ts";

/** The pages of one list at one limit: every offset, or the ones an edit touched; and offsets to delete. */
export interface PageUnit {
  list: number;
  limit: number;
  offsets: OffsetPlan;
  delete?: { from: number; to: number };
}

export interface PageJob {
  root: string;
  pageTemplate: string;
  lists: PageList[];
  units: PageUnit[];
  compress: boolean;
  /** replace files in place via rename (incremental builds into a live tree) */
  inPlace: boolean;
}

export interface PageStats {
  written: number;
  /** files that did not exist before */
  created: number;
  writtenBytes: number;
  /** bytes of files overwritten or deleted (in-place builds only) */
  removedBytes: number;
  deleted: number;
}

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
};

export function writePageUnits(job: PageJob, onProgress?: (written: number) => void): PageStats {
  const stats: PageStats = { written: 0, created: 0, writtenBytes: 0, removedBytes: 0, deleted: 0 };
  const renderers = new Map<number, PageRenderer>();

  const writeFileSync = (path: string, pieces: Buffer[]) => {
    const old = job.inPlace ? sizeOf(path) : -1;
    if (old >= 0) stats.removedBytes += old;
    else stats.created++;
    const target = job.inPlace ? `${path}.tmp-${process.pid}` : path;
    const fd = openSync(target, "w");
    try {
      let length = 0;
      for (const p of pieces) length += p.byteLength;
      let done = writevSync(fd, pieces);
      // A short write is rare on a regular file; finish what is left.
      while (done < length) done += writevSync(fd, [Buffer.concat(pieces).subarray(done)]);
      stats.written++;
      stats.writtenBytes += length;
    } finally {
      closeSync(fd);
    }
    if (job.inPlace) renameSync(target, path);
  };

  const removeFileSync = (path: string) => {
    const old = sizeOf(path);
    if (old < 0) return;
    stats.removedBytes += old;
    rmSync(path);
    stats.deleted++;
  };

  for (const unit of job.units) {
    const list = job.lists[unit.list]!;
    let renderer = renderers.get(unit.list);
    if (!renderer) renderers.set(unit.list, (renderer = new PageRenderer(list)));
    // The unit's path around its offset, computed once: a page's path is then one concatenation.
    const [head, tail] = join(job.root, fill(job.pageTemplate, { filter: list.filter, limit: unit.limit, offset: "\u0000" })).split("\u0000") as [string, string];
    const pathOf = (offset: number) => head + offset + tail;
    mkdirSync(dirname(pathOf(0)), { recursive: true });
    const offsets = unit.offsets === "all" ? Array.from({ length: renderer.total + 1 }, (_, i) => i) : unit.offsets;
    for (const offset of offsets) {
      const path = pathOf(offset);
      const pieces = renderer.pieces(unit.limit, offset);
      writeFileSync(path, pieces);
      if (job.compress) {
        const siblings = siblingsOf(path, Buffer.concat(pieces));
        for (const s of siblings.write) writeFileSync(s.path, [s.body]);
        if (job.inPlace) for (const p of siblings.remove) removeFileSync(p);
      }
      if (stats.written % 2000 === 0) onProgress?.(stats.written);
    }
    if (unit.delete) {
      for (let offset = unit.delete.from; offset <= unit.delete.to; offset++) {
        const path = pathOf(offset);
        for (const p of [path, ...siblingPaths(path)]) removeFileSync(p);
      }
    }
  }
  return stats;
}
