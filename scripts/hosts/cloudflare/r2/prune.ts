// --prune: keeps the newest builds and the live one, and bounds the bucket's bytes by what they use. A pack no kept
// build uses goes; a pack whose used share fell below REPACK_SHARE has its used bodies copied into a new pack, the
// kept builds that pointed into it get new shards and records (the live one a new pointer, same build), and the old
// pack goes once no Worker can still hold the old pointer. Every pack left is at least REPACK_SHARE used, so the
// bucket holds at most 1 / REPACK_SHARE of what the kept builds use (plus their manifests). Refused while an upload
// is under way (its marker or heartbeat is fresh): it may rely on packs no complete build names yet. A killed or
// failed upload's marker stops being fresh UPLOAD_FRESH_MS after its last heartbeat.

import { etagFromSha256Hex } from "../../../api/runtime/etag.ts";
import { UserError } from "../../../cli/command.ts";
import { POINTER_TTL_MS } from "../worker/r2-builds.ts";
import {
  BUILDS_PREFIX,
  type BuildRecord,
  buildRecordKey,
  type ListEntry,
  listPieceSize,
  type ManifestShard,
  PACKS_PREFIX,
  type PartedEntry,
  packKey,
  SHARDS_PREFIX,
  type ShardEntry,
  type ShardRef,
  shardKey,
  UPLOADS_PREFIX,
} from "../worker/r2-layout.ts";
import { listBuilds, readShard, switchTo } from "./bucket.ts";
import { UPLOAD_FRESH_MS } from "./marker.ts";
import { PackWriter } from "./packs.ts";
import { encodeShard } from "./shards.ts";
import { DELETE_BATCH, metered, putObject, type Traffic, type UploadTarget } from "./target.ts";

/** A pack used less than this (by bytes) is rewritten: 2/3 bounds the bucket at 1.5× what kept builds use. */
export const REPACK_SHARE = 0.7;

export interface PruneSummary extends Traffic {
  kept: string[];
  /** why each kept build beyond the `keep` newest was kept, by id */
  keptBecause: Record<string, string>;
  removedBuilds: string[];
  removedPacks: number;
  rewrittenPacks: number;
  removedShards: number;
  /** bytes of packs and shards before and after */
  bucketBytes: { before: number; after: number };
}

/** Why each kept build that is not among the `keep` newest stays: the summary says it, so no kept build is a surprise. */
export function keptReasons(
  newestFirst: readonly { id: string; live: boolean }[],
  kept: readonly { id: string; live: boolean }[],
  keep: number,
): Record<string, string> {
  const reasons: Record<string, string> = {};
  for (const build of kept) {
    if (newestFirst.indexOf(build) < keep) continue;
    // Older than the newest `keep` and still live: a rollback made it live, or a newer upload never switched.
    if (build.live) reasons[build.id] = "it is the live build (newer ones were rolled back from or never switched to)";
  }
  return reasons;
}

export async function prune(
  bucket: UploadTarget,
  keep: number,
  { freshMs = UPLOAD_FRESH_MS }: { freshMs?: number } = {},
): Promise<PruneSummary> {
  const { target, traffic } = metered(bucket);
  const markers = await target.list(UPLOADS_PREFIX);
  const newest = Math.max(...markers.map((o) => o.uploaded));
  if (Date.now() - newest < freshMs) {
    const wait = Math.ceil((freshMs - (Date.now() - newest)) / 1000);
    throw new UserError(
      `an upload is under way (${markers.find((o) => o.uploaded === newest)!.key} was written ` +
        `${Math.round((Date.now() - newest) / 1000)} s ago): prune again when it is done, or in ${wait} s if it ` +
        "was killed or failed",
    );
  }
  const builds = await listBuilds(target);
  const kept = builds.filter((b, i) => i < keep || b.live);
  const removed = builds.filter((b) => !kept.includes(b));
  const keptBecause = keptReasons(builds, kept, keep);
  const packs = await target.list(PACKS_PREFIX);
  const shardObjects = await target.list(SHARDS_PREFIX);
  const sizeOf = new Map(packs.map((o) => [o.key.slice(PACKS_PREFIX.length), o.size]));
  const before = [...packs, ...shardObjects].reduce((sum, o) => sum + o.size, 0);

  // What the kept builds use of each pack: its stored bodies and pieces (and a format 2 build's runs) by offset.
  const shards = new Map<string, { shard: ManifestShard; format: number }>();
  for (const build of kept)
    for (const [, name] of build.shards)
      if (!shards.has(name)) shards.set(name, { shard: await readShard(target, name), format: build.format ?? 1 });
  const used = new Map<string, Map<number, Stored>>();
  for (const { shard, format } of shards.values())
    for (const ref of storedRefs(shard, format)) {
      const name = shard.packs[ref.pack]!;
      let bodies = used.get(name);
      if (!bodies) used.set(name, (bodies = new Map()));
      bodies.set(ref.offset, ref.stored);
    }
  const usedBytes = (name: string) => [...(used.get(name)?.values() ?? [])].reduce((sum, b) => sum + b.length, 0);
  const sparse = [...used.keys()].filter((name) => usedBytes(name) < REPACK_SHARE * (sizeOf.get(name) ?? 0));

  // The sparse packs' used bodies into new packs, as stored, in their order: old (pack, offset) → new place.
  const moved = new Map<string, { pack: string; offset: number; length: number }>();
  let writer = new PackWriter();
  let waiting: { from: string; offset: number; at: { offset: number; length: number } }[] = [];
  const seal = async () => {
    const { name, body } = writer.seal();
    await putObject(target, packKey(name), body);
    for (const w of waiting) moved.set(`${w.from}@${w.offset}`, { pack: name, ...w.at });
    writer = new PackWriter();
    waiting = [];
  };
  for (const name of sparse) {
    const bytes = await target.readBytes(packKey(name));
    if (!bytes) throw new UserError(`${packKey(name)} is missing, though a kept build uses it: nothing was pruned`);
    for (const [offset, body] of [...used.get(name)!].sort((a, b) => a[0] - b[0])) {
      const at = writer.add(body.id, body.size, bytes.subarray(offset, offset + body.length), body.coding);
      waiting.push({ from: name, offset, at });
      if (writer.bytes >= target.packBytes) await seal();
    }
  }
  if (!writer.empty) await seal();

  // Kept builds pointing into a rewritten pack: new shards, then a new record, then (the live one) the pointer.
  const renamed = new Map<string, ShardRef>();
  const rewriteShard = async (ref: ShardRef): Promise<ShardRef> => {
    if (!ref[3].some((p) => sparse.includes(p))) return ref;
    const done = renamed.get(ref[1]);
    if (done) return [ref[0], done[1], ref[2], done[3], done[4]];
    const { shard: old, format } = shards.get(ref[1])!;
    const packs: string[] = [];
    const index = new Map<string, number>();
    const shard = relocated(old, format, (pack, offset, length) => {
      const to = moved.get(`${old.packs[pack]}@${offset}`) ?? { pack: old.packs[pack]!, offset, length };
      let k = index.get(to.pack);
      if (k === undefined) index.set(to.pack, (k = packs.push(to.pack) - 1));
      return { pack: k, offset: to.offset };
    });
    shard.packs = packs;
    const { name, body } = encodeShard(shard);
    await target.put([{ key: shardKey(name), body }]);
    const next: ShardRef = [ref[0], name, ref[2], shard.packs, ref[4]];
    renamed.set(ref[1], next);
    return next;
  };
  const records: BuildRecord[] = [];
  for (const build of kept) {
    const { live: _live, ...record } = build;
    const refs: ShardRef[] = [];
    for (const ref of record.shards) refs.push(await rewriteShard(ref));
    const next: BuildRecord = { ...record, shards: refs, packs: [...new Set(refs.flatMap((r) => r[3]))].sort() };
    if (JSON.stringify(next) !== JSON.stringify(record))
      await target.put([{ key: buildRecordKey(next.id), body: new TextEncoder().encode(JSON.stringify(next)) }]);
    records.push(next);
    if (build.live) await switchTo(target, next, { sameBuild: true });
  }
  // A Worker may hold the old pointer for POINTER_TTL_MS: the old packs and shards stay until it cannot.
  if (sparse.length > 0) await new Promise((r) => setTimeout(r, 2 * POINTER_TTL_MS));

  const deleteAll = async (keys: string[]) => {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) await target.delete(keys.slice(i, i + DELETE_BATCH));
  };
  // The records first: a build without its record is no longer listed, whatever is left of it.
  await deleteAll(removed.map((b) => buildRecordKey(b.id)));
  for (const build of removed) await deleteAll((await target.list(`${BUILDS_PREFIX}${build.id}/`)).map((o) => o.key));
  const keptPacks = new Set(records.flatMap((r) => r.packs));
  const keptShards = new Set(records.flatMap((r) => r.shards.map((ref) => ref[1])));
  const oldPacks = packs.map((o) => o.key).filter((key) => !keptPacks.has(key.slice(PACKS_PREFIX.length)));
  const oldShards = shardObjects.map((o) => o.key).filter((key) => !keptShards.has(key.slice(SHARDS_PREFIX.length)));
  await deleteAll([...oldPacks, ...oldShards, ...markers.map((o) => o.key)]);
  const after = (await target.list(PACKS_PREFIX))
    .concat(await target.list(SHARDS_PREFIX))
    .reduce((sum, o) => sum + o.size, 0);
  return {
    kept: kept.map((b) => b.id),
    keptBecause,
    removedBuilds: removed.map((b) => b.id),
    removedPacks: oldPacks.length,
    rewrittenPacks: sparse.length,
    removedShards: oldShards.length,
    bucketBytes: { before, after },
    ...traffic,
  };
}

/** A stored body as a pack's index names it: its id, decoded size, stored length, and "identity" for one stored as it
 *  is (a format 3 list piece; a format 2 run is named `run:<id>` and has none). */
interface Stored {
  id: string;
  size: number;
  length: number;
  coding?: "identity";
}

/** A format 2 list: [key, run id, pack, offset, length, category, lengths]; its run stored as it is. */
type ListEntry2 = [string, string, number, number, number, string | null, number[]];

/** Every stored body a shard of a build of `format` points at: its pack (in the shard's packs) and offset. */
function storedRefs(shard: ManifestShard, format: number): { pack: number; offset: number; stored: Stored }[] {
  const refs: { pack: number; offset: number; stored: Stored }[] = [];
  for (const [, etag, size, pack, offset, length, coding] of shard.files)
    refs.push({ pack, offset, stored: { id: etag, size, length, ...(coding === "identity" ? { coding } : {}) } });
  if (format < 3) {
    for (const [, run, pack, offset, length] of (shard.lists ?? []) as unknown as ListEntry2[])
      refs.push({ pack, offset, stored: { id: `run:${run}`, size: length, length } });
    return refs;
  }
  for (const [, , , pieces] of shard.lists ?? [])
    for (const [id, pack, offset, lengths] of pieces) {
      const size = listPieceSize(lengths);
      refs.push({ pack, offset, stored: { id: etagFromSha256Hex(id), size, length: size, coding: "identity" } });
    }
  for (const [, , , parts] of shard.parted ?? [])
    for (const part of parts)
      if (typeof part !== "string")
        for (const [id, pack, offset, length, size] of part)
          refs.push({ pack, offset, stored: { id: etagFromSha256Hex(id), size, length } });
  return refs;
}

/** The shard with every place moved as `to` says (pack positions in a new packs list the caller keeps). */
function relocated(
  shard: ManifestShard,
  format: number,
  to: (pack: number, offset: number, length: number) => { pack: number; offset: number },
): ManifestShard {
  const files = shard.files.map((e) => {
    const at = to(e[3], e[4], e[5]);
    return [e[0], e[1], e[2], at.pack, at.offset, ...e.slice(5)] as ShardEntry;
  });
  const next: ManifestShard = { packs: [], files };
  if (format < 3) {
    if (shard.lists)
      next.lists = (shard.lists as unknown as ListEntry2[]).map((l) => {
        const at = to(l[2], l[3], l[4]);
        return [l[0], l[1], at.pack, at.offset, l[4], l[5], l[6]];
      }) as unknown as ListEntry[];
    return next;
  }
  if (shard.lists)
    next.lists = shard.lists.map(
      ([key, id, category, pieces]): ListEntry => [
        key,
        id,
        category,
        pieces.map(([pid, pack, offset, lengths]) => {
          const at = to(pack, offset, listPieceSize(lengths));
          return [pid, at.pack, at.offset, lengths];
        }),
      ],
    );
  if (shard.parted)
    next.parted = shard.parted.map(
      ([path, etag, size, parts]): PartedEntry => [
        path,
        etag,
        size,
        parts.map((part) =>
          typeof part === "string"
            ? part
            : part.map(([pid, pack, offset, length, pieceSize]) => {
                const at = to(pack, offset, length);
                return [pid, at.pack, at.offset, length, pieceSize];
              }),
        ),
      ],
    );
  return next;
}
