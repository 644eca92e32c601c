// dist/ → a new immutable build in an R2 bucket (worker/r2-layout.ts), then the live pointer switched to it in one
// conditional put. The upload trusts the build (publication.ts): every file's SHA-256 and size, each list's pieces and
// items' lengths and the export's parts come from the build's records, so no page file is read or even needed and no
// body is hashed. What the bucket holds comes from the live build's manifest (only the shards over keys that changed
// are read) and from the packs no complete build names yet (a failed or killed upload's), so only the bodies and
// pieces new to the bucket are read from disk and sent, in a few packs: one change sends the pieces, bodies and
// shards it changed, never a whole list or the whole export. In stages: plan the shards, send the packs, write the
// shards and the record, switch. Nothing a reader sees changes before the switch: the pointer is written last.

import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { loadRouteTable } from "../../../api/load-route-table.ts";
import type { BuildIndexText } from "../../../api/runtime/build-index.ts";
import { etagFromSha256Hex as etagOfId } from "../../../api/runtime/etag.ts";
import { fill, layout, MAX_LIMIT, type RouteTable } from "../../../api/runtime/route-table.ts";
import { readBuildPaths } from "../../../io/build-hashes.ts";
import { publishedPathFilter } from "../adapter.ts";
import {
  type BodyPart,
  type BuildRecord,
  buildRecordKey,
  compareKeys,
  LAYOUT_FORMAT,
  type ListEntry,
  listPieceSize,
  type ManifestShard,
  PACKS_PREFIX,
  type PartedEntry,
  type ShardEntry,
  type ShardRef,
  type StoredCoding,
  shardFor,
  shardKey,
  storedId,
  UPLOADS_PREFIX,
} from "../worker/r2-layout.ts";
import { readLive, readPackIndex, readRecord, readShard, sameLayout, switchTo } from "./bucket.ts";
import { HEARTBEAT_MS, startMarker } from "./marker.ts";
import { gzipBody, PackWriter } from "./packs.ts";
import { type Publication, readPublication } from "./publication.ts";
import { cutShards, encodeShard, shardDigest } from "./shards.ts";
import { metered, pool, putObject, type Traffic, type UploadTarget } from "./target.ts";

export interface UploadSummary extends Traffic {
  build: string;
  /** the build's files (published files but the list pages; the export, stored in parts, counted once) */
  files: number;
  /** distinct stored bodies among them (each piece once) */
  objects: number;
  /** bodies and pieces read (and compressed, but pieces) and sent, and their bytes decoded */
  sent: number;
  sentBodyBytes: number;
  /** stored bodies the bucket had already (earlier builds, or this upload's killed run) */
  present: number;
  packs: number;
  shards: number;
  /** the bytes of the manifest shards sent (of sentBytes) */
  shardBytes: number;
  /** the build's bytes as stored (by its shards) and decoded */
  storedBytes: number;
  bytes: number;
  /** false: the build was live already */
  switched: boolean;
  /** the live build was written by another layout of the bucket: nothing of it was reused */
  otherLayout: boolean;
  previous: string | null;
  seconds: number;
}

/** What a long upload reports as it goes: bodies compressed of all it must send, packs and bytes sent. */
export interface Progress {
  phase: "reading the bucket" | "sending packs" | "sending the manifest" | "switching";
  bodies: number;
  total: number;
  packs: number;
  sentBytes: number;
}

export interface UploadOptions {
  onProgress?: (progress: Progress) => void;
  /** how often the upload shows it is alive (tests make it short); default HEARTBEAT_MS */
  heartbeatMs?: number;
}

/** Files read and compressed at once. */
const READ_GROUP = 32;

/** The files of one build below the roots a Worker answers from (what Static Assets would upload), as dist/ paths
 *  with `/`, sorted: the files the build wrote, and in a pages build every list page. */
export async function publishedFiles(distDir: string): Promise<string[]> {
  const root = await realpath(distDir);
  const isPublished = publishedPathFilter(await loadRouteTable(root));
  return (await readBuildPaths(root)).filter(isPublished).sort(compareKeys);
}

/** Every list page a build names: each list's pages at each limit, from offset 0 to its total. */
export function pageFiles(table: RouteTable, index: BuildIndexText): string[] {
  const template = layout(table.basePath).page;
  const pages: string[] = [];
  for (const [filter, { lengths }] of Object.entries(index.lists))
    for (let limit = 1; limit <= MAX_LIMIT; limit++)
      for (let offset = 0; offset <= lengths.length; offset++) pages.push(fill(template, { filter, limit, offset }));
  return pages;
}

/** Where a stored body lies: a pack (named once sealed), its offset and length there, and its decoded size. */
interface Location {
  pack: { name: string };
  offset: number;
  length: number;
  size: number;
}

/** The stored bodies the bucket holds that this upload may point at without sending them again, by storedId. */
async function bucketBodies(
  target: UploadTarget,
  marker: string,
  liveRecord: BuildRecord | null,
  changedRanges: [first: string, last: string][],
): Promise<Map<string, Location>> {
  const known = new Map<string, Location>();
  const packs = new Map<string, { name: string }>();
  const packOf = (name: string) => packs.get(name) ?? packs.set(name, { name }).get(name)!;
  const learn = (id: string, pack: string, offset: number, length: number, size: number) => {
    if (!known.has(id)) known.set(id, { pack: packOf(pack), offset, length, size });
  };
  if (liveRecord) {
    // Only the live shards over keys that changed: an unchanged shard is kept by name, unread. A changed list or body
    // in parts finds its unchanged pieces in its own live entry.
    const read = new Set<number>();
    for (const [first, last] of changedRanges) {
      const to = shardFor(liveRecord.shards, last);
      for (let i = shardFor(liveRecord.shards, first); i <= to; i++) read.add(i);
    }
    await pool([...read], 8, async (i) => {
      const shard = await readShard(target, liveRecord.shards[i]![1]);
      for (const [, etag, size, pack, offset, length, coding] of shard.files)
        learn(storedId(etag, coding), shard.packs[pack]!, offset, length, size);
      for (const [, , , pieces] of shard.lists ?? [])
        for (const [id, pack, offset, lengths] of pieces) {
          const size = listPieceSize(lengths);
          learn(storedId(etagOfId(id), "identity"), shard.packs[pack]!, offset, size, size);
        }
      for (const [, , , parts] of shard.parted ?? [])
        for (const part of parts)
          if (typeof part !== "string")
            for (const [id, pack, offset, length, size] of part)
              learn(storedId(etagOfId(id)), shard.packs[pack]!, offset, length, size);
    });
  }
  // Packs no live build names, sent since another upload began (its marker is still there: it was killed, or is
  // running): a killed upload's complete packs are reused, not sent again. Times are the bucket's own.
  const markers = (await target.list(UPLOADS_PREFIX)).filter((o) => o.key !== marker && o.key.endsWith(".json"));
  if (markers.length === 0) return known;
  const since = Math.min(...markers.map((o) => o.uploaded));
  const named = new Set(liveRecord?.packs ?? []);
  const others = (await target.list(PACKS_PREFIX))
    .map((o) => ({ name: o.key.slice(PACKS_PREFIX.length), uploaded: o.uploaded }))
    .filter((o) => !named.has(o.name) && o.uploaded >= since);
  await pool(others, 8, async ({ name }) => {
    // A format 2 pack's runs (`run:…`) are no body of this format.
    for (const [etag, size, offset, length, coding] of (await readPackIndex(target, name)) ?? [])
      if (etag.startsWith('"')) learn(storedId(etag, coding), name, offset, length, size);
  });
  return known;
}

/** A shard of the new build: the keys it holds, and the digest an unchanged shard of the live build shares. */
interface ShardPlan {
  keys: string[];
  digest: string;
}

/** Stage 1: the build's shards, and which of them the live build already has (kept by name, unread). */
function planShards(publication: Publication, liveRecord: BuildRecord | null) {
  const plans: ShardPlan[] = cutShards(publication.keys).map((keys) => ({
    keys,
    digest: shardDigest(keys.map((k) => publication.lines.get(k)!)),
  }));
  const liveShards = new Map(liveRecord?.shards.map((ref) => [`${ref[0]}\0${ref[2]}`, ref]));
  const kept = (plan: ShardPlan) => liveShards.get(`${plan.keys[0]}\0${plan.digest}`);
  return { plans, kept, changed: plans.filter((p) => !kept(p)) };
}

type ShardsPlan = ReturnType<typeof planShards>;

/** A body to send: its storedId, its file, its coding and decoded size. */
interface Missing {
  id: string;
  path: string;
  coding: StoredCoding;
  size: number;
}

/** What the changed shards need that the bucket lacks, each once, in the order they are packed: each changed list's
 *  new pieces in list order (so a page's pieces lie end to end), the bodies in key order, the export's new pieces in
 *  its order. */
function missingBodies({ files, lists, parted }: Publication, { changed }: ShardsPlan, known: Map<string, Location>) {
  const queued = new Set<string>();
  const pieces: Missing[] = [];
  const bodies: Missing[] = [];
  const partPieces: Missing[] = [];
  const need = (into: Missing[], m: Missing) => {
    if (known.has(m.id) || queued.has(m.id)) return;
    queued.add(m.id);
    into.push(m);
  };
  const keys = changed.flatMap((p) => p.keys);
  for (const key of keys)
    for (const p of lists.get(key)?.pieces ?? [])
      need(pieces, { id: storedId(p.etag, "identity"), path: p.path, coding: "identity", size: p.size });
  for (const key of keys) {
    const f = files.get(key);
    if (f) need(f.coding === "identity" ? pieces : bodies, { ...f, id: storedId(f.etag, f.coding) });
    for (const part of parted.get(key)?.parts ?? [])
      if (typeof part !== "string")
        for (const p of part) need(partPieces, { id: storedId(p.etag), path: p.path, coding: "gzip", size: p.size });
  }
  return [...pieces, ...bodies, ...partPieces];
}

/** Stage 2: the stored bodies no shard of the bucket points at, read (and compressed, but list pieces) and packed.
 *  Packs go out as they fill, a few at once. `known` learns where each lies. */
async function sendPacks(
  target: UploadTarget,
  root: string,
  publication: Publication,
  plan: ShardsPlan,
  known: Map<string, Location>,
  progress: Progress,
  report: () => void,
) {
  const missing = missingBodies(publication, plan, known);
  progress.phase = "sending packs";
  progress.total = missing.length;
  report();
  let sent = 0;
  let sentBodyBytes = 0;
  let pack = new PackWriter();
  let packRef = { name: "" };
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const seal = async () => {
    const sealed = pack.seal();
    packRef.name = sealed.name;
    pack = new PackWriter();
    packRef = { name: "" };
    const sending = putObject(target, `${PACKS_PREFIX}${sealed.name}`, sealed.body).then(
      () => {
        progress.packs++;
        report();
      },
      (e: unknown) => {
        failure ??= e;
      },
    );
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
    while (inFlight.size >= target.batch.concurrency) await Promise.race(inFlight);
    if (failure !== undefined) throw failure;
  };
  for (let start = 0; start < missing.length; start += READ_GROUP) {
    const group = missing.slice(start, start + READ_GROUP);
    const stored = await Promise.all(
      group.map(async (m) => {
        const bytes = await readFile(join(root, m.path));
        // As it is: any page's items are one range of it, sent inside the envelope the Worker writes.
        return m.coding === "identity" ? bytes : gzipBody(bytes);
      }),
    );
    for (const [j, m] of group.entries()) {
      const etag = m.id.split(" ")[0]!;
      const { offset, length } = pack.add(etag, m.size, stored[j]!, m.coding);
      known.set(m.id, { pack: packRef, offset, length, size: m.size });
      sentBodyBytes += m.size;
      if (pack.bytes >= target.packBytes) await seal();
    }
    sent += group.length;
    progress.bodies = sent;
    report();
  }
  if (!pack.empty) await seal();
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return { sent, sentBodyBytes, present: publication.stored.size - missing.length };
}

/** One shard of the new build, every key with where its stored bodies lie. */
function shardOf(keys: readonly string[], { files, lists, parted }: Publication, known: Map<string, Location>) {
  const shard: ManifestShard = { packs: [], files: [] };
  const packIndex = new Map<string, number>();
  /** Each distinct stored body's length, by pack and offset: the shard's storedBytes. */
  const stored = new Map<string, number>();
  const place = (id: string) => {
    const at = known.get(id);
    if (!at) throw new Error(`upload: no place for ${id}`);
    let k = packIndex.get(at.pack.name);
    if (k === undefined) packIndex.set(at.pack.name, (k = shard.packs.push(at.pack.name) - 1));
    stored.set(`${at.pack.name}@${at.offset}`, at.length);
    return { k, ...at };
  };
  const listEntries: ListEntry[] = [];
  const partedEntries: PartedEntry[] = [];
  for (const key of keys) {
    const f = files.get(key);
    if (f) {
      const at = place(storedId(f.etag, f.coding));
      shard.files.push([f.path, f.etag, f.size, at.k, at.offset, at.length, f.coding] satisfies ShardEntry);
      continue;
    }
    const l = lists.get(key);
    if (l) {
      const pieces = l.pieces.map((p) => {
        const at = place(storedId(p.etag, "identity"));
        return [p.id, at.k, at.offset, p.lengths] as ListEntry[3][number];
      });
      listEntries.push([l.key, l.id, l.category, pieces]);
      continue;
    }
    const p = parted.get(key)!;
    const parts: BodyPart[] = p.parts.map((part) =>
      typeof part === "string"
        ? part
        : part.map((x) => {
            const at = place(storedId(x.etag));
            return [x.id, at.k, at.offset, at.length, x.size] as const satisfies BodyPart[number] & unknown[];
          }),
    ) as BodyPart[];
    partedEntries.push([p.path, p.etag, p.size, parts]);
  }
  if (listEntries.length > 0) shard.lists = listEntries;
  if (partedEntries.length > 0) shard.parted = partedEntries;
  return { shard, storedBytes: [...stored.values()].reduce((a, b) => a + b, 0) };
}

/** Stage 3: the manifest (unchanged shards by name, the others anew; a shard the bucket has is not sent again), then
 *  the record, last: a build without one is incomplete and never switched to. */
async function writeManifest(
  target: UploadTarget,
  publication: Publication,
  { plans, kept }: ShardsPlan,
  known: Map<string, Location>,
  liveRecord: BuildRecord | null,
) {
  const refs: ShardRef[] = [];
  const liveNames = new Set(liveRecord?.shards.map((ref) => ref[1]));
  const shardObjects = new Map<string, Uint8Array>();
  for (const plan of plans) {
    const same = kept(plan);
    if (same) {
      refs.push(same);
      continue;
    }
    const { shard, storedBytes } = shardOf(plan.keys, publication, known);
    const { name, body } = encodeShard(shard);
    refs.push([plan.keys[0]!, name, plan.digest, shard.packs, storedBytes]);
    if (!liveNames.has(name)) shardObjects.set(name, body);
  }
  const objects = [...shardObjects].map(([name, body]) => ({ key: shardKey(name), body }));
  for (let i = 0; i < objects.length; i += target.batch.objects)
    await target.put(objects.slice(i, i + target.batch.objects));
  const record: BuildRecord = {
    format: LAYOUT_FORMAT,
    id: publication.id,
    createdAt: new Date().toISOString(),
    files: publication.files.size + publication.parted.size,
    lists: publication.lists.size,
    bytes: publication.bytes,
    storedBytes: refs.reduce((sum, ref) => sum + ref[4], 0),
    shards: refs,
    packs: [...new Set(refs.flatMap((ref) => ref[3]))].sort(compareKeys),
  };
  await target.put([{ key: buildRecordKey(record.id), body: new TextEncoder().encode(JSON.stringify(record)) }]);
  return { record, shardsSent: objects.length, shardBytes: objects.reduce((sum, o) => sum + o.body.byteLength, 0) };
}

/** The stored bodies a build needs in the bucket (storedId: each body's ETag, and its coding but gzip). */
export async function publicationNames(distDir: string): Promise<Set<string>> {
  return (await readPublication(await realpath(distDir), distDir)).stored;
}

export async function uploadToR2(
  distDir: string,
  bucket: UploadTarget,
  { onProgress, heartbeatMs = HEARTBEAT_MS }: UploadOptions = {},
): Promise<UploadSummary> {
  const started = performance.now();
  const { target, traffic } = metered(bucket);
  // One generation for the whole upload, even if dist/ is republished meanwhile.
  const root = await realpath(distDir);
  const publication = await readPublication(root, distDir);
  const { id, files, parted, stored, bytes } = publication;
  const progress: Progress = { phase: "reading the bucket", bodies: 0, total: 0, packs: 0, sentBytes: 0 };
  const report = () => onProgress?.({ ...progress, sentBytes: traffic.sentBytes });
  report();
  const marker = await startMarker(target, root, heartbeatMs);
  let finished = false;
  try {
    const live = await readLive(target);
    // A build of another layout is not read: its shards say other things.
    const otherLayout = live !== null && !sameLayout(live.pointer);
    let record = await readRecord(target, id);
    if (record && !sameLayout(record)) record = null;
    let sending = { sent: 0, sentBodyBytes: 0, present: stored.size };
    let shardsSent = 0;
    let shardBytes = 0;
    if (!record) {
      const liveRecord = live && !otherLayout ? await readRecord(target, live.pointer.build) : null;
      const plan = planShards(publication, liveRecord);
      const known = await bucketBodies(
        target,
        marker.key,
        liveRecord,
        plan.changed.map((p) => [p.keys[0]!, p.keys.at(-1)!]),
      );
      sending = await sendPacks(target, root, publication, plan, known, progress, report);
      progress.phase = "sending the manifest";
      report();
      ({ record, shardsSent, shardBytes } = await writeManifest(target, publication, plan, known, liveRecord));
    }
    progress.phase = "switching";
    report();
    const { switched, previous } = await switchTo(target, record);
    finished = true;
    return {
      build: id,
      files: files.size + parted.size,
      objects: stored.size,
      sent: sending.sent,
      sentBodyBytes: sending.sentBodyBytes,
      present: sending.present,
      packs: progress.packs,
      shards: shardsSent,
      shardBytes,
      storedBytes: record.storedBytes,
      bytes,
      switched,
      otherLayout,
      previous,
      ...traffic,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await marker.stop(finished);
  }
}
