// The line `npm run mirror` ends with.
import { formatCount } from "../cli/command.ts";
import { formatBytes } from "../cli/format-bytes.ts";
import type { MirrorResult } from "./update-mirror.ts";

/** The one line a run ends with: counts with thousands separators, sizes in human units. "Bodies by address": the
 *  served files with a request target of their own, as the hash tree lists them (docs/hosts/layout.md#counting-a-build);
 *  lists are held as runs, joined from their pieces. */
export function mirrorSummary(from: string, out: string, result: MirrorResult): string {
  if (!result.changed)
    return `${out}/ is in step with ${from} (${formatCount(result.targets)} bodies by address; the root did not change)`;
  return (
    `mirrored ${from} into ${out}/: ${formatCount(result.targets)} bodies by address and ${formatCount(result.lists)} lists ` +
    `of ${formatCount(result.pieces)} pieces; fetched ${formatCount(result.bodiesFetched)} bodies (${formatBytes(result.bodyBytes)}), ` +
    `${formatCount(result.piecesFetched)} pieces (${formatBytes(result.pieceBytes)}) and ${formatCount(result.shardsFetched)} shards ` +
    `(${formatBytes(result.indexBytes)} of index with the root) in ${formatCount(result.requests)} requests, ${result.seconds.toFixed(1)} s`
  );
}
