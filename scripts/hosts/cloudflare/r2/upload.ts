// dist/ → a new immutable build in an R2 bucket (worker/r2-layout.ts), then the live pointer switched to it in one
// conditional put. The upload trusts the build: every file's SHA-256 and size come from the build's record
// (readBuildFiles: the build manifest), and each list of GET /software from its run file (render/list-runs.ts), so no
// page file is read or even needed: the Worker writes pages around ranged reads of the runs. What the bucket holds
// comes from the live build's manifest (only the shards whose files or lists changed are read) and from the packs no
// complete build names yet (a killed upload's), so only bodies and runs new to the bucket are read from disk and
// sent, in a few packs. Nothing a reader sees changes before the switch: the pointer is written last, after the
// packs, the shards and the record.
// Also: the list of builds and rollback (a switch to an older build); prune is r2-prune.ts.

import { randomBytes } from "node:crypto";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { loadRouteTable } from "../../../api/load-route-table.ts";
import { etagFromSha256Hex } from "../../../api/runtime/etag.ts";
import { layout } from "../../../api/runtime/route-table.ts";
import { sha256Hex } from "../../../api/sha256-node.ts";
import { UserError } from "../../../cli/command.ts";
import { type BuildHash, readBuildFiles, readBuildHashes } from "../../../io/build-hashes.ts";
import { filterOfRunFile, type ListRunHeader, parseListRun } from "../../../render/list-runs.ts";
import { publishedPathFilter } from "../adapter.ts";
import {
  BUILDS_PREFIX,
  type BuildRecord,
  buildOfRecordKey,
  buildRecordKey,
  LAYOUT_FORMAT,
  LIVE_KEY,
  type LivePointer,
  listKey,
  type ManifestShard,
  PACK_TRAILER,
  PACKS_PREFIX,
  type PackIndex,
  packKey,
  runId,
  type ShardRef,
  shardFor,
  shardKey,
  UPLOADS_PREFIX,
} from "../worker/r2-layout.ts";
import { gzipBody, indexLength, PackWriter } from "./packs.ts";
import { cutShards, decodeShard, encodeShard, shardDigest } from "./shards.ts";

/** One object to send. */
export interface UploadObject {
  key: string;
  body: Uint8Array;
}

export type ByteRange = { offset: number; length: number } | { suffix: number };

/** Where builds go: the local R2 (uploader-worker.ts) or an S3-compatible API such as Cloudflare R2's (remote-r2.ts). */
export interface UploadTarget {
  /** small objects and bytes per put() call, and how many calls (or packs) are in flight at once */
  batch: { objects: number; bytes: number; concurrency: number };
  /** a pack is sealed once its bodies reach this many bytes; an object larger than partBytes goes in parts */
  packBytes: number;
  partBytes: number;
  /** an object's text and R2 ETag, or null when there is none */
  read(key: string): Promise<{ text: string; etag: string } | null>;
  /** an object's bytes, or a range of them; null when there is none */
  readBytes(key: string, range?: ByteRange): Promise<Uint8Array | null>;
  put(objects: UploadObject[]): Promise<void>;
  /** one large object as a multipart upload, in parts of partBytes */
  putParts(key: string, body: Uint8Array): Promise<void>;
  /** puts only when the object's R2 ETag is `etag` (null: only when there is no object); false when it did not */
  putIf(key: string, text: string, etag: string | null): Promise<boolean>;
  /** every key under a prefix, with its upload time (ms since the epoch) and size */
  list(prefix: string): Promise<{ key: string; uploaded: number; size: number }[]>;
  /** at most DELETE_BATCH keys */
  delete(keys: string[]): Promise<void>;
}

/** Requests and bytes an upload (or prune) sent. Class A requests: puts, multipart parts, lists. */
export interface Traffic {
  writes: number;
  lists: number;
  deletes: number;
  sentBytes: number;
}

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

/** R2 deletes at most this many keys per call. */
export const DELETE_BATCH = 1000;
/** An upload rewrites its heartbeat (uploads/<token>.alive) this often while it runs. */
export const HEARTBEAT_MS = 60 * 1000;
/** An object under uploads/ younger than this keeps prune from deleting anything (an upload may rely on what it
 *  found): a running upload's heartbeat always is; a killed or failed upload's marker stops being so after this. */
export const UPLOAD_FRESH_MS = 5 * 60 * 1000;
/** An upload's marker and heartbeat: uploads/<ms>-<hex>.json (written once, at the start: its time is when the
 *  upload began) and uploads/<ms>-<hex>.alive (rewritten every HEARTBEAT_MS). */
export const markerKey = (token: string) => `${UPLOADS_PREFIX}${token}.json`;
export const heartbeatKey = (token: string) => `${UPLOADS_PREFIX}${token}.alive`;
/** Files read and compressed at once. */
const READ_GROUP = 32;

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** A target that counts what goes through it. */
export function metered(target: UploadTarget): { target: UploadTarget; traffic: Traffic } {
  const traffic: Traffic = { writes: 0, lists: 0, deletes: 0, sentBytes: 0 };
  return {
    traffic,
    target: {
      ...target,
      async put(objects) {
        await target.put(objects);
        traffic.writes += objects.length;
        for (const o of objects) traffic.sentBytes += o.body.byteLength;
      },
      async putParts(key, body) {
        await target.putParts(key, body);
        // create, each part, complete
        traffic.writes += Math.ceil(body.byteLength / target.partBytes) + 2;
        traffic.sentBytes += body.byteLength;
      },
      async putIf(key, text, etag) {
        const done = await target.putIf(key, text, etag);
        traffic.writes++;
        traffic.sentBytes += Buffer.byteLength(text);
        return done;
      },
      async list(prefix) {
        const listed = await target.list(prefix);
        traffic.lists += Math.max(1, Math.ceil(listed.length / 1000));
        return listed;
      },
      async delete(keys) {
        await target.delete(keys);
        traffic.deletes++;
      },
    },
  };
}

/** One object, in parts when it is large. */
export const putObject = (target: UploadTarget, key: string, body: Uint8Array) =>
  body.byteLength > target.partBytes ? target.putParts(key, body) : target.put([{ key, body }]);

/** The files of one build that the Worker can answer with, as dist/ paths with `/`, sorted. */
export async function publishedFiles(distDir: string): Promise<string[]> {
  const root = await realpath(distDir);
  const isPublished = publishedPathFilter(await loadRouteTable(root));
  return [...(await readBuildHashes(root)).keys()].filter(isPublished).sort();
}

export async function readLive(target: UploadTarget): Promise<{ pointer: LivePointer; etag: string } | null> {
  const live = await target.read(LIVE_KEY);
  return live && { pointer: JSON.parse(live.text) as LivePointer, etag: live.etag };
}

/** A pointer or record this code's layout wrote (LAYOUT_FORMAT). */
export const sameLayout = (written: { format?: number }) => written.format === LAYOUT_FORMAT;

export async function readRecord(target: UploadTarget, id: string): Promise<BuildRecord | null> {
  const record = await target.read(buildRecordKey(id));
  return record && (JSON.parse(record.text) as BuildRecord);
}

export async function readShard(target: UploadTarget, name: string): Promise<ManifestShard> {
  const bytes = await target.readBytes(shardKey(name));
  if (!bytes) throw new UserError(`the bucket lacks ${shardKey(name)}, which a complete build names`);
  return decodeShard(bytes);
}

/** A pack's index, read back from its end (two ranged reads). */
export async function readPackIndex(target: UploadTarget, name: string): Promise<PackIndex | null> {
  const trailer = await target.readBytes(packKey(name), { suffix: PACK_TRAILER });
  if (!trailer) return null;
  const length = indexLength(trailer);
  const index = await target.readBytes(packKey(name), { suffix: PACK_TRAILER + length });
  return index && (JSON.parse(new TextDecoder().decode(index.subarray(0, length))) as PackIndex);
}

/** Every body in the bucket's packs, by ETag (each pack's index read back): for tests and the benchmark. */
export async function bodiesInBucket(target: UploadTarget): Promise<Set<string>> {
  const bodies = new Set<string>();
  await pool(await target.list(PACKS_PREFIX), 8, async ({ key }) => {
    for (const [etag] of (await readPackIndex(target, key.slice(PACKS_PREFIX.length))) ?? []) bodies.add(etag);
  });
  return bodies;
}

/** Points the live pointer at a complete build, in one conditional put over the pointer read just before. */
export async function switchTo(
  target: UploadTarget,
  record: BuildRecord,
  { sameBuild = false } = {},
): Promise<{ switched: boolean; previous: string | null }> {
  const live = await readLive(target);
  const shards = record.shards.map(([first, name]) => [first, name] as [string, string]);
  // The same build in another layout (uploaded again with this code) is switched to all the same.
  if (
    live?.pointer.build === record.id &&
    sameLayout(live.pointer) &&
    (!sameBuild || JSON.stringify(live.pointer.shards) === JSON.stringify(shards))
  )
    return { switched: false, previous: live.pointer.previous };
  const pointer: LivePointer = {
    format: LAYOUT_FORMAT,
    build: record.id,
    shards,
    // a new manifest of the same build (prune's repacking) keeps the pointer's history
    previous: live?.pointer.build === record.id ? live.pointer.previous : (live?.pointer.build ?? null),
    switchedAt: new Date().toISOString(),
  };
  let done: boolean;
  try {
    done = await target.putIf(LIVE_KEY, JSON.stringify(pointer), live?.etag ?? null);
  } catch (e) {
    done = await switchOutcome(target, pointer, e as Error);
  }
  if (!done)
    throw new UserError(
      "another upload or rollback switched the live build meanwhile: nothing was switched; run it again",
    );
  return { switched: true, previous: pointer.previous };
}

/** After a switch that failed without an answer to trust (the retries spent, the last answer lost): what the bucket
 *  says. Our pointer there: switched. Another: a one-line error saying the build is not live. Unreadable: a one-line
 *  error saying the outcome is unknown. */
async function switchOutcome(target: UploadTarget, pointer: LivePointer, error: Error): Promise<true> {
  const cause = error.message.split("\n")[0];
  let now: Awaited<ReturnType<typeof readLive>>;
  try {
    now = await readLive(target);
  } catch (e) {
    throw new UserError(
      `${cause}; live.json could not be read back either (${(e as Error).message.split("\n")[0]}): whether build ` +
        `${pointer.build} is live is unknown (--list says which build is)`,
    );
  }
  if (now?.pointer.build === pointer.build && now.pointer.switchedAt === pointer.switchedAt) return true;
  throw new UserError(
    `${cause}; live.json names ${now ? `build ${now.pointer.build}` : "no build"}: build ${pointer.build} is not live`,
  );
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

/** Runs `task` over `items`, `limit` at once. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) await task(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

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
  const lists = new Map<string, { file: string; run: string; size: number }>();
  for (const [path, { sha256, size }] of hashes) {
    const filter = filterOfRunFile(path);
    if (filter !== null) lists.set(listKey(pageTemplate, filter), { file: path, run: sha256.slice(0, 32), size });
  }
  if (lists.size === 0)
    throw new UserError(`${distDir} was built before lists were kept for the edge: build it again (npm run build)`);
  const etags = new Map(files.map((f) => [f, etagFromSha256Hex(hashes.get(f)!.sha256)]));
  return { hashes, files, lists, etags };
}

/** The names a build's packs index (its bodies' ETags, its runs): what it needs in the bucket. */
export async function publicationNames(distDir: string): Promise<Set<string>> {
  const { etags, lists } = await readPublication(await realpath(distDir), distDir);
  return new Set([...etags.values(), ...[...lists.values()].map((l) => runId(l.run))]);
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
  const { hashes, files, lists, etags } = await readPublication(root, distDir);
  const keys = [...files, ...lists.keys()].sort();
  const bytes = [...files, ...[...lists.values()].map((l) => l.file)].reduce((sum, f) => sum + hashes.get(f)!.size, 0);
  const distinct = new Set(etags.values()).size + new Set([...lists.values()].map((l) => l.run)).size;
  const id = buildIdOf([...files, ...[...lists.values()].map((l) => l.file)].sort(), hashes);
  const progress: Progress = { phase: "reading the bucket", bodies: 0, total: 0, packs: 0, sentBytes: 0 };
  const report = () => onProgress?.({ ...progress, sentBytes: traffic.sentBytes });
  report();
  const token = `${Date.now()}-${randomBytes(4).toString("hex")}`;
  const marker = markerKey(token);
  await target.put([{ key: marker, body: json({ dist: root, startedAt: new Date().toISOString() }) }]);
  // The heartbeat says the upload is alive (prune waits only for a fresh one); a failed beat is the next one's to mend.
  let beat: Promise<void> = Promise.resolve();
  const heartbeat = setInterval(() => {
    beat = target.put([{ key: heartbeatKey(token), body: json({ at: new Date().toISOString() }) }]).catch(() => {});
  }, heartbeatMs);
  heartbeat.unref();
  let finished = false;
  try {
    const live = await readLive(target);
    // A build of another layout is not read: its shards say other things (one body per page).
    const otherLayout = live !== null && !sameLayout(live.pointer);
    let record = await readRecord(target, id);
    if (record && !sameLayout(record)) record = null;
    let sent = 0;
    let sentBodyBytes = 0;
    let present = distinct;
    let shardsSent = 0;
    if (!record) {
      const liveRecord = live && !otherLayout ? await readRecord(target, live.pointer.build) : null;
      const entryOf = (p: string) => {
        const list = lists.get(p);
        return list ? ([p, list.run, list.size] as const) : ([p, etags.get(p)!, hashes.get(p)!.size] as const);
      };
      const plans = cutShards(keys, (p) => lists.has(p)).map((paths) => ({
        paths,
        digest: shardDigest(paths.map(entryOf)),
      }));
      const liveShards = new Map(liveRecord?.shards.map((ref) => [`${ref[0]}\0${ref[2]}`, ref]));
      const kept = (plan: { paths: string[]; digest: string }) => liveShards.get(`${plan.paths[0]}\0${plan.digest}`);
      const changed = plans.filter((p) => !kept(p));
      const known = await bucketBodies(
        target,
        marker,
        liveRecord,
        changed.map((p) => [p.paths[0]!, p.paths.at(-1)!]),
      );

      // The bodies no shard of the bucket points at: read, compressed, packed, in path order; then the runs of the
      // lists whose shards changed (their headers are needed for the shards, their runs only if the bucket lacks them).
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
      present = distinct - missing.length - missingRuns.size;
      progress.phase = "sending packs";
      progress.total = missing.length + missingRuns.size;
      report();
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
      const headers = new Map<string, ListRunHeader>();
      for (const key of changedLists) {
        const { file, run, size } = lists.get(key)!;
        const { header, run: bytes } = parseListRun(await readFile(join(root, file)));
        headers.set(key, header);
        if (known.has(runId(run))) continue;
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

      // The manifest: unchanged shards by name, the others anew (a shard the bucket has is not sent again).
      progress.phase = "sending the manifest";
      report();
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
      shardsSent = objects.length;
      record = {
        format: LAYOUT_FORMAT,
        id,
        createdAt: new Date().toISOString(),
        files: files.length + lists.size,
        bytes,
        storedBytes: refs.reduce((sum, ref) => sum + ref[4], 0),
        shards: refs,
        packs: [...new Set(refs.flatMap((ref) => ref[3]))].sort(),
      };
      // The record last: a build without one is incomplete and never switched to.
      await target.put([{ key: buildRecordKey(id), body: json(record) }]);
    }
    progress.phase = "switching";
    report();
    const { switched, previous } = await switchTo(target, record);
    finished = true;
    return {
      build: id,
      files: files.length + lists.size,
      objects: distinct,
      sent,
      sentBodyBytes,
      present,
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
    clearInterval(heartbeat);
    // Done: the live build names every pack this upload sent. Failed: the marker stays, so the next upload reads the
    // packs sent since it began and sends none of them again; prune removes it once it is no longer fresh.
    if (finished) {
      await beat;
      await target.delete([marker, heartbeatKey(token)]).catch(() => {});
    }
  }
}

export interface BuildListing extends BuildRecord {
  live: boolean;
}

/** Every complete build in the bucket, newest first. */
export async function listBuilds(target: UploadTarget): Promise<BuildListing[]> {
  const live = await readLive(target);
  const ids = (await target.list(BUILDS_PREFIX))
    .map((o) => buildOfRecordKey(o.key))
    .filter((id): id is string => id !== null);
  const records = await Promise.all(ids.map((id) => readRecord(target, id)));
  return records
    .filter((r): r is BuildRecord => r !== null)
    .map((r) => ({ ...r, live: r.id === live?.pointer.build }))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? -1 : 1));
}

/** Switches back to `id`, or without one to the build live before the current one. */
export async function rollback(target: UploadTarget, id?: string): Promise<{ build: string; previous: string }> {
  const live = await readLive(target);
  if (!live) throw new UserError("no build is live in this bucket: nothing to roll back");
  const to = id ?? live.pointer.previous;
  if (!to)
    throw new UserError(`build ${live.pointer.build} is the only one ever live here: name a build (--list shows them)`);
  const record = await readRecord(target, to);
  if (!record) throw new UserError(`no complete build ${to} in this bucket (--list shows them)`);
  if (to === live.pointer.build) throw new UserError(`build ${to} is live already`);
  if (!sameLayout(record))
    throw new UserError(
      `build ${to} was uploaded in an older layout of the bucket, which this Worker does not read: upload its dist/ again instead`,
    );
  await switchTo(target, record);
  return { build: to, previous: live.pointer.build };
}
