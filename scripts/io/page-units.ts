// Writes list pages, synchronously: the code a page writer thread runs (and the main thread, for small jobs).
// A page goes to the kernel as its pieces (writev), never concatenated, unless it is compressed.
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writevSync } from "node:fs";
import { dirname, join } from "node:path";
import { fill } from "../api/runtime/route-table.ts";
import { type PageList, PageRenderer } from "../render/software-pages.ts";
import { siblingsOf } from "./encodings.ts";
import { withPath } from "./file-errors.ts";
import type { OffsetPlan } from "./manifest.ts";

/** The pages of one list at one limit: every offset, or the ones an edit touched. */
export interface PageUnit {
  list: number;
  limit: number;
  offsets: OffsetPlan;
  /**
   * The pages exist already (a working copy whose files may be hard links shared with the published tree):
   * each is replaced by a new file renamed over it, never written into.
   */
  replace: boolean;
}

export interface PageJob {
  root: string;
  pageTemplate: string;
  lists: PageList[];
  units: PageUnit[];
  compress: boolean;
}

export interface PageStats {
  written: number;
  /** files that did not exist before */
  created: number;
  writtenBytes: number;
  /** bytes of files overwritten or deleted (replacing units only) */
  removedBytes: number;
  deleted: number;
  /** per list index: net change of its files and bytes */
  perList: Record<number, { files: number; bytes: number }>;
}

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
};

export function writePageUnits(job: PageJob, onProgress?: (written: number) => void): PageStats {
  const stats: PageStats = {
    written: 0,
    created: 0,
    writtenBytes: 0,
    removedBytes: 0,
    deleted: 0,
    perList: {},
  };
  const renderers = new Map<number, PageRenderer>();
  let delta = { files: 0, bytes: 0 };

  const writeFileSync = (path: string, pieces: Buffer[], replace: boolean) => {
    const old = replace ? sizeOf(path) : -1;
    if (old >= 0) {
      stats.removedBytes += old;
      delta.bytes -= old;
    } else {
      stats.created++;
      delta.files++;
    }
    const target = old >= 0 ? `${path}.tmp-${process.pid}` : path;
    // "wx": never open a file that exists, whatever happens: its inode may be the published tree's.
    const fd = openSync(target, "wx");
    try {
      let length = 0;
      for (const p of pieces) length += p.byteLength;
      try {
        let done = writevSync(fd, pieces);
        // A short write is rare on a regular file; finish what is left.
        while (done < length) done += writevSync(fd, [Buffer.concat(pieces).subarray(done)]);
      } catch (e) {
        throw withPath(e, target); // a full disk names the file it was writing
      }
      stats.written++;
      stats.writtenBytes += length;
      delta.bytes += length;
    } finally {
      closeSync(fd);
    }
    if (target !== path) renameSync(target, path);
  };

  const removeFileSync = (path: string) => {
    const old = sizeOf(path);
    if (old < 0) return;
    stats.removedBytes += old;
    stats.deleted++;
    delta.bytes -= old;
    delta.files--;
    rmSync(path);
  };

  for (const unit of job.units) {
    const list = job.lists[unit.list]!;
    let renderer = renderers.get(unit.list);
    if (!renderer) renderers.set(unit.list, (renderer = new PageRenderer(list)));
    delta = stats.perList[unit.list] ??= { files: 0, bytes: 0 };
    // The unit's path around its offset, computed once: a page's path is then one concatenation.
    const [head, tail] = join(
      job.root,
      fill(job.pageTemplate, { filter: list.filter, limit: unit.limit, offset: "\u0000" }),
    ).split("\u0000") as [string, string];
    const pathOf = (offset: number) => head + offset + tail;
    mkdirSync(dirname(pathOf(0)), { recursive: true });
    const offsets = unit.offsets === "all" ? Array.from({ length: renderer.total + 1 }, (_, i) => i) : unit.offsets;
    for (const offset of offsets) {
      const path = pathOf(offset);
      const pieces = renderer.pieces(unit.limit, offset);
      writeFileSync(path, pieces, unit.replace);
      if (job.compress) {
        const siblings = siblingsOf(path, Buffer.concat(pieces));
        for (const s of siblings.write) writeFileSync(s.path, [s.body], unit.replace);
        if (unit.replace) for (const p of siblings.remove) removeFileSync(p);
      }
      if (stats.written % 2000 === 0) onProgress?.(stats.written);
    }
  }
  return stats;
}
