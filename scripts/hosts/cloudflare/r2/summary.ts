// The lines `npm run upload:r2` and `npm run start:cloudflare -- --r2` report an upload, a prune and a listing in.
import { formatCount } from "../../../cli/command.ts";
import { formatBytes } from "../../../cli/format-bytes.ts";
import type { BuildListing } from "./bucket.ts";
import type { PruneSummary } from "./prune.ts";
import type { UploadSummary } from "./upload.ts";

/** `served`: the build's served files (io/tree-report.ts servedFilesOf), the count every command gives. */
export function summaryLine(s: UploadSummary, served?: number): string {
  return (
    `R2: build ${s.build} (${served === undefined ? "" : `${formatCount(served)} served files, `}stored as ` +
    `${formatCount(s.objects)} objects: each distinct body and piece once, no list page, no whole export): sent ` +
    `${formatCount(s.sent)} bodies in ${formatCount(s.packs)} packs and ${formatCount(s.shards)} manifest shards ` +
    `(${formatBytes(s.sentBytes)}, ${formatCount(s.writes)} write requests), ${formatCount(s.present)} ` +
    `already there, in ${s.seconds.toFixed(1)} s; ` +
    `${s.switched ? `live now${s.previous ? ` (was ${s.previous})` : ""}` : "it was live already"}` +
    // A bucket an older layout of this uploader wrote: nothing of it can be reused or rolled back to.
    (s.otherLayout
      ? "; the build live before was uploaded in an older layout of the bucket: this one was sent whole, and --rollback cannot return to that one"
      : "")
  );
}

/** The kept builds, and why each one beyond the `keep` newest is kept. */
export function keptLine(kept: string[], because: Record<string, string>, keep: number): string {
  const extra = kept.filter((id) => because[id] !== undefined);
  return kept.join(", ") + extra.map((id) => ` (${id} beyond the ${keep} newest: ${because[id]})`).join("");
}

export const listLine = (b: BuildListing) =>
  `${b.id}  ${b.createdAt.replace("T", " ").slice(0, 19)}  ${formatCount(b.files).padStart(9)} files${b.live ? "  live" : ""}`;

/** What a prune kept, removed and rewrote, and the bucket's size before and after. */
export const prunedLine = (done: PruneSummary, keep: number): string =>
  `R2: kept ${keptLine(done.kept, done.keptBecause, keep)}; removed ${done.removedBuilds.length} builds, ` +
  `${formatCount(done.removedPacks)} packs and ${formatCount(done.removedShards)} shards; rewrote ` +
  `${done.rewrittenPacks} packs; the bucket's packs and shards ${formatBytes(done.bucketBytes.before)} → ` +
  `${formatBytes(done.bucketBytes.after)}`;
