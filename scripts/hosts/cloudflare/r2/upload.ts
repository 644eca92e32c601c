// dist/ → a new immutable build in an R2 bucket (worker/r2-layout.ts), then the live pointer switched to it in one
// conditional put. The upload trusts the build: every file's SHA-256 and size come from the build's record
// (readBuildFiles: the build manifest), and each list of GET /software from its run file (render/list-runs.ts) and
// its items' lengths in the build's index (build-index.json), so no
// page file is read or even needed: the Worker writes pages around ranged reads of the runs. What the bucket holds
// comes from the live build's manifest (only the shards whose files or lists changed are read) and from the packs no
// complete build names yet (a failed or killed upload's), so only bodies and runs new to the bucket are read from
// disk and sent, in a few packs. In stages: plan the shards, send the packs, write the shards and the record, switch.
// Nothing a reader sees changes before the switch: the pointer is written last.

import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { loadRouteTable } from "../../../api/load-route-table.ts";
import { BUILD_INDEX_FILE, type BuildIndexText } from "../../../api/runtime/build-index.ts";
import { etagFromSha256Hex } from "../../../api/runtime/etag.ts";
import { layout } from "../../../api/runtime/route-table.ts";
import { sha256Hex } from "../../../api/sha256-node.ts";
import { UserError } from "../../../cli/command.ts";
import { type BuildHash, readBuildFiles, readBuildPaths } from "../../../io/build-hashes.ts";
import { filterOfRunFile } from "../../../render/list-runs.ts";
import { publishedPathFilter } from "../adapter.ts";
import {
  type BuildRecord,
  buildRecordKey,
  LAYOUT_FORMAT,
  listKey,
  type ManifestShard,
  PACKS_PREFIX,
  packKey,
  runId,
  type ShardRef,
  shardFor,
  shardKey,
  UPLOADS_PREFIX,
} from "../worker/r2-layout.ts";
import { readLive, readPackIndex, readRecord, readShard, sameLayout, switchTo } from "./bucket.ts";
import { HEARTBEAT_MS, startMarker } from "./marker.ts";
import { gzipBody, PackWriter } from "./packs.ts";
import { cutShards, encodeShard, shardDigest } from "./shards.ts";
import { metered, pool, putObject, type Traffic, type UploadTarget } from "./target.ts";

export interface UploadSummary extends Traffic {
  build: string;
  /** published files in dist/ but the list pages, and one per list (its run) */
  files: number;
  /** distinct bodies among them */
  objects: number;
  /** bodies read, compressed and sent, and their bytes before compression */
  sent: number;
  sentBodyBytes: number;
  /** bodies the bucket had already (earlier builds, or this upload's killed run) */
  present: number;
  packs: number;
  shards: number;
  /** the build's bytes as stored (each distinct body once, compressed) and decoded */
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

/** The files of one build that the Worker can answer with, as dist/ paths with `/`, sorted. */
export async function publishedFiles(distDir: string): Promise<string[]> {
  const root = await realpath(distDir);
  const isPublished = publishedPathFilter(await loadRouteTable(root));
  return (await readBuildPaths(root)).filter(isPublished).sort();
}

/** Where a body lies: a pack (named once sealed), its offset and length there, and its decoded size. */
interface Location {
  pack: { name: string };
  offset: number;
  length: number;
  size: number;
}

/** The build's id: a hash of its paths and bodies, so the same build uploaded again is the same build. */
export const buildIdOf = (files: readonly string[], hashes: Map<string, BuildHash>) =>
  sha256Hex(files.map((f) => `${f}\t${hashes.get(f)!.sha256}\n`).join("")).slice(0, 16);

/** The bodies the bucket holds that this upload may point at without sending them again. */
async function bucketBodies(
  target: UploadTarget,
  marker: string,
  liveRecord: BuildRecord | null,
  changedRanges: [first: string, last: string][],
): Promise<Map<string, Location>> {
  const known = new Map<string, Location>();
  const packs = new Map<string, { name: string }>();
  const packOf = (name: string) => packs.get(name) ?? packs.set(name, { name }).get(name)!;
  const learn = (etag: string, pack: string, offset: number, length: number, size: number) => {
    if (!known.has(etag)) known.set(etag, { pack: packOf(pack), offset, length, size });
  };
  if (liveRecord) {
    // Only the live shards over paths that changed: an unchanged shard is kept by name, unread.
    const read = new Set<number>();
    for (const [first, last] of changedRanges) {
      const to = shardFor(liveRecord.shards, last);
      for (let i = shardFor(liveRecord.shards, first); i <= to; i++) read.add(i);
    }
    await pool([...read], 8, async (i) => {
      const shard = await readShard(target, liveRecord.shards[i]![1]);
      for (const [, etag, size, pack, offset, length] of shard.files)
        learn(etag, shard.packs[pack]!, offset, length, size);
      for (const [, run, pack, offset, length] of shard.lists ?? [])
        learn(runId(run), shard.packs[pack]!, offset, length, length);
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
    for (const [etag, size, offset, length] of (await readPackIndex(target, name)) ?? [])
      learn(etag, name, offset, length, size);
  });
  return known;
}

/** What a build publishes to the bucket, from its record: its files but the list pages (by ETag), its lists' runs. */
async function readPublication(root: string, distDir = root) {
  const table = await loadRouteTable(root);
  const isPublished = publishedPathFilter(table);
  const hashes = readBuildFiles(root);
  // Every published file but the list pages (a build's manifest names none), and each list by its run file.
  const files = [...hashes.keys()].filter(isPublished).sort();
  const pageTemplate = layout(table.basePath).page;
  const lists = new Map<string, { file: string; run: string; size: number; header: ListHeader }>();
  let index: BuildIndexText | undefined;
  for (const [path, { sha256, size }] of hashes) {
    const filter = filterOfRunFile(path);
    if (filter === null) continue;
    index ??= JSON.parse(await readFile(join(root, BUILD_INDEX_FILE), "utf8")) as BuildIndexText;
    const listed = index.lists[filter];
    if (!listed) throw new UserError(`${distDir}: ${BUILD_INDEX_FILE} names no list ${filter}: build it again`);
    const header = { category: listed.category, lengths: listed.lengths };
    lists.set(listKey(pageTemplate, filter), { file: path, run: sha256.slice(0, 32), size, header });
  }
  if (lists.size === 0)
    throw new UserError(`${distDir} was built before lists were kept for the edge: build it again (npm run build)`);
  const etags = new Map(files.map((f) => [f, etagFromSha256Hex(hashes.get(f)!.sha256)]));
  const records = [...files, ...[...lists.values()].map((l) => l.file)];
  return {
    hashes,
    files,
    lists,
    etags,
    /** what the shards name: every file but the list pages, and each list by its key */
    keys: [...files, ...lists.keys()].sort(),
    bytes: records.reduce((sum, f) => sum + hashes.get(f)!.size, 0),
    distinct: new Set(etags.values()).size + new Set([...lists.values()].map((l) => l.run)).size,
    id: buildIdOf(records.sort(), hashes),
  };
}

type Publication = Awaited<ReturnType<typeof readPublication>>;

/** A list's meta.category and its items' lengths in bytes, as the build's index names them. */
interface ListHeader {
  category: string | null;
  lengths: number[];
}

/** The names a build's packs index (its bodies' ETags, its runs): what it needs in the bucket. */
export async function publicationNames(distDir: string): Promise<Set<string>> {
  const { etags, lists } = await readPublication(await realpath(distDir), distDir);
  return new Set([...etags.values(), ...[...lists.values()].map((l) => runId(l.run))]);
}

/** A shard of the new build: the paths it holds, and the digest an unchanged shard of the live build shares. */
interface ShardPlan {
  paths: string[];
  digest: string;
}

/** Stage 1: the build's shards, and which of them the live build already has (kept by name, unread). */
function planShards(publication: Publication, liveRecord: BuildRecord | null) {
  const { lists, etags, hashes } = publication;
  const entryOf = (p: string) => {
    const list = lists.get(p);
    return list ? ([p, list.run, list.size] as const) : ([p, etags.get(p)!, hashes.get(p)!.size] as const);
  };
  const plans: ShardPlan[] = cutShards(publication.keys, (p) => lists.has(p)).map((paths) => ({
    paths,
    digest: shardDigest(paths.map(entryOf)),
  }));
  const liveShards = new Map(liveRecord?.shards.map((ref) => [`${ref[0]}\0${ref[2]}`, ref]));
  const kept = (plan: ShardPlan) => liveShards.get(`${plan.paths[0]}\0${plan.digest}`);
  return { plans, kept, changed: plans.filter((p) => !kept(p)) };
}

type ShardsPlan = ReturnType<typeof planShards>;

/** Stage 2: the bodies no shard of the bucket points at, read, compressed and packed in path order, then the runs of
 *  the lists whose shards changed (their headers are needed for the shards, their runs only if the bucket lacks
 *  them). Packs go out as they fill, a few at once. `known` learns where each lies. */
async function sendPacks(
  target: UploadTarget,
  root: string,
  { lists, etags, hashes, distinct }: Publication,
  { changed }: ShardsPlan,
  known: Map<string, Location>,
  progress: Progress,
  report: () => void,
) {
  const missing: string[] = [];
  const changedLists: string[] = [];
  const queued = new Set<string>();
  for (const plan of changed)
    for (const f of plan.paths) {
      if (lists.has(f)) {
        changedLists.push(f);
        continue;
      }
      const etag = etags.get(f)!;
      if (known.has(etag) || queued.has(etag)) continue;
      queued.add(etag);
      missing.push(f);
    }
  const missingRuns = new Set(changedLists.map((k) => lists.get(k)!.run).filter((run) => !known.has(runId(run))));
  progress.phase = "sending packs";
  progress.total = missing.length + missingRuns.size;
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
    const sending = putObject(target, packKey(sealed.name), sealed.body).then(
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
    const compressed = await Promise.all(group.map(async (f) => gzipBody(await readFile(join(root, f)))));
    for (const [j, f] of group.entries()) {
      const etag = etags.get(f)!;
      const { offset, length } = pack.add(etag, hashes.get(f)!.size, compressed[j]!);
      known.set(etag, { pack: packRef, offset, length, size: hashes.get(f)!.size });
      sentBodyBytes += hashes.get(f)!.size;
      if (pack.bytes >= target.packBytes) await seal();
    }
    sent += group.length;
    progress.bodies = sent;
    report();
  }
  const headers = new Map<string, ListHeader>();
  for (const key of changedLists) {
    const { file, run, size, header } = lists.get(key)!;
    headers.set(key, header);
    if (known.has(runId(run))) continue;
    const bytes = await readFile(join(root, file));
    // As it is: any page's items are one ranged read, sent to the client inside the envelope.
    const { offset, length } = pack.add(runId(run), bytes.byteLength, bytes);
    known.set(runId(run), { pack: packRef, offset, length, size: bytes.byteLength });
    sentBodyBytes += size;
    progress.bodies = ++sent;
    report();
    if (pack.bytes >= target.packBytes) await seal();
  }
  if (!pack.empty) await seal();
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return { sent, sentBodyBytes, present: distinct - missing.length - missingRuns.size, headers };
}

/** Stage 3: the manifest (unchanged shards by name, the others anew; a shard the bucket has is not sent again), then
 *  the record, last: a build without one is incomplete and never switched to. */
async function writeManifest(
  target: UploadTarget,
  { id, files, lists, etags, bytes }: Publication,
  { plans, kept }: ShardsPlan,
  known: Map<string, Location>,
  headers: Map<string, ListHeader>,
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
    const shard: ManifestShard = { packs: [], files: [] };
    const packIndex = new Map<string, number>();
    for (const f of plan.paths) {
      const list = lists.get(f);
      const etag = list ? runId(list.run) : etags.get(f)!;
      const at = known.get(etag)!;
      let k = packIndex.get(at.pack.name);
      if (k === undefined) packIndex.set(at.pack.name, (k = shard.packs.push(at.pack.name) - 1));
      if (!list) {
        shard.files.push([f, etag, at.size, k, at.offset, at.length]);
        continue;
      }
      const { category, lengths } = headers.get(f)!;
      (shard.lists ??= []).push([f, list.run, k, at.offset, at.length, category, lengths]);
    }
    const { name, body } = encodeShard(shard);
    const stored = new Map([
      ...shard.files.map((e) => [e[1], e[5]] as const),
      ...(shard.lists ?? []).map((e) => [runId(e[1]), e[4]] as const),
    ]);
    refs.push([plan.paths[0]!, name, plan.digest, shard.packs, [...stored.values()].reduce((a, b) => a + b, 0)]);
    if (!liveNames.has(name)) shardObjects.set(name, body);
  }
  const objects = [...shardObjects].map(([name, body]) => ({ key: shardKey(name), body }));
  for (let i = 0; i < objects.length; i += target.batch.objects)
    await target.put(objects.slice(i, i + target.batch.objects));
  const record: BuildRecord = {
    format: LAYOUT_FORMAT,
    id,
    createdAt: new Date().toISOString(),
    files: files.length + lists.size,
    bytes,
    storedBytes: refs.reduce((sum, ref) => sum + ref[4], 0),
    shards: refs,
    packs: [...new Set(refs.flatMap((ref) => ref[3]))].sort(),
  };
  await target.put([{ key: buildRecordKey(id), body: new TextEncoder().encode(JSON.stringify(record)) }]);
  return { record, shardsSent: objects.length };
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
  const { id, files, lists, distinct, bytes } = publication;
  const progress: Progress = { phase: "reading the bucket", bodies: 0, total: 0, packs: 0, sentBytes: 0 };
  const report = () => onProgress?.({ ...progress, sentBytes: traffic.sentBytes });
  report();
  const marker = await startMarker(target, root, heartbeatMs);
  let finished = false;
  try {
    const live = await readLive(target);
    // A build of another layout is not read: its shards say other things (one body per page).
    const otherLayout = live !== null && !sameLayout(live.pointer);
    let record = await readRecord(target, id);
    if (record && !sameLayout(record)) record = null;
    let sending = { sent: 0, sentBodyBytes: 0, present: distinct };
    let shardsSent = 0;
    if (!record) {
      const liveRecord = live && !otherLayout ? await readRecord(target, live.pointer.build) : null;
      const plan = planShards(publication, liveRecord);
      const known = await bucketBodies(
        target,
        marker.key,
        liveRecord,
        plan.changed.map((p) => [p.paths[0]!, p.paths.at(-1)!]),
      );
      const packs = await sendPacks(target, root, publication, plan, known, progress, report);
      sending = packs;
      progress.phase = "sending the manifest";
      report();
      ({ record, shardsSent } = await writeManifest(target, publication, plan, known, packs.headers, liveRecord));
    }
    progress.phase = "switching";
    report();
    const { switched, previous } = await switchTo(target, record);
    finished = true;
    return {
      build: id,
      files: files.length + lists.size,
      objects: distinct,
      sent: sending.sent,
      sentBodyBytes: sending.sentBodyBytes,
      present: sending.present,
      packs: progress.packs,
      shards: shardsSent,
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
