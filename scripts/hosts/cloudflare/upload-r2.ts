// dist/ → a new immutable build in an R2 bucket (worker/r2-layout.ts), then the live pointer switched to it in one
// conditional put. Bodies are content-addressed and sent only when the bucket lacks them, so a second upload of a
// changed build sends its changed bodies, and an upload killed at any point resumes without re-sending what arrived.
// Nothing a reader sees changes before the switch: the pointer is written last, after the build's manifest.
// Also: the list of builds, rollback (a switch to an older build) and pruning of old builds and unused objects.

import { randomBytes } from "node:crypto";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { etagOf } from "../../api/etag-node.ts";
import { loadRouteTable } from "../../api/load-route-table.ts";
import { sha256Hex } from "../../api/sha256-node.ts";
import { UserError } from "../../cli/command.ts";
import { publishedPathFilter } from "./adapter.ts";
import {
  BUILDS_PREFIX,
  type BuildRecord,
  buildOfRecordKey,
  buildRecordKey,
  LIVE_KEY,
  type LivePointer,
  type ManifestShard,
  manifestShardKey,
  OBJECTS_PREFIX,
  objectKey,
  shardCount,
  shardOf,
  UPLOADS_PREFIX,
} from "./worker/r2-layout.ts";

/** One object to send. */
export interface UploadObject {
  key: string;
  body: Uint8Array;
}

/** Where builds go: the local R2 (uploader-worker.ts) or Cloudflare's R2 over its S3 API (remote-r2.ts). */
export interface UploadTarget {
  /** objects and bytes per put() call, and how many calls run at once */
  batch: { objects: number; bytes: number; concurrency: number };
  /** an object's text and R2 ETag, or null when there is none */
  read(key: string): Promise<{ text: string; etag: string } | null>;
  put(objects: UploadObject[]): Promise<void>;
  /** puts only when the object's R2 ETag is `etag` (null: only when there is no object); false when it did not */
  putIf(key: string, text: string, etag: string | null): Promise<boolean>;
  /** every key under a prefix, with its upload time (ms since the epoch) */
  list(prefix: string): Promise<{ key: string; uploaded: number }[]>;
  /** at most DELETE_BATCH keys */
  delete(keys: string[]): Promise<void>;
}

export interface UploadSummary {
  build: string;
  /** published files in dist/ */
  files: number;
  /** distinct bodies among them */
  objects: number;
  sent: number;
  sentBytes: number;
  /** bodies the bucket had already (earlier builds, or this upload's killed run) */
  present: number;
  /** false: the build was live already */
  switched: boolean;
  previous: string | null;
  seconds: number;
}

export interface UploadOptions {
  onProgress?: (done: number, total: number, sent: number) => void;
}

/** R2 deletes at most this many keys per call. */
export const DELETE_BATCH = 1000;
/** An upload's marker younger than this keeps prune from deleting objects (the upload may rely on them). */
export const UPLOAD_MARKER_MS = 60 * 60 * 1000;
/** Files read and hashed at once. */
const READ_GROUP = 32;

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** The files of one build that the Worker can answer with, as dist/ paths with `/`. */
export async function publishedFiles(distDir: string): Promise<string[]> {
  const root = await realpath(distDir);
  const table = await loadRouteTable(root);
  const files = await fg("**", { cwd: root, dot: false, onlyFiles: true, followSymbolicLinks: false });
  return files.filter(publishedPathFilter(table)).sort();
}

/** Sends batches, a few in flight; the first failure stops it. */
function batchSender(target: UploadTarget) {
  let batch: UploadObject[] = [];
  let bytes = 0;
  let sent = 0;
  let sentBytes = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const flush = async (force = false) => {
    if (batch.length > 0 && (force || batch.length >= target.batch.objects || bytes >= target.batch.bytes)) {
      const objects = batch;
      const size = bytes;
      batch = [];
      bytes = 0;
      const call: Promise<void> = target.put(objects).then(
        () => {
          sent += objects.length;
          sentBytes += size;
        },
        (e: unknown) => {
          failure ??= e;
        },
      );
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
    }
    while (inFlight.size >= target.batch.concurrency) await Promise.race(inFlight);
    if (failure !== undefined) throw failure;
  };
  return {
    async add(object: UploadObject) {
      batch.push(object);
      bytes += object.body.byteLength;
      await flush();
    },
    async done() {
      await flush(true);
      await Promise.all(inFlight);
      if (failure !== undefined) throw failure;
    },
    stats: () => ({ sent, sentBytes }),
  };
}

export async function readLive(target: UploadTarget): Promise<{ pointer: LivePointer; etag: string } | null> {
  const live = await target.read(LIVE_KEY);
  return live && { pointer: JSON.parse(live.text) as LivePointer, etag: live.etag };
}

async function readRecord(target: UploadTarget, id: string): Promise<BuildRecord | null> {
  const record = await target.read(buildRecordKey(id));
  return record && (JSON.parse(record.text) as BuildRecord);
}

/** Points the live pointer at a complete build, in one conditional put over the pointer read just before. */
async function switchTo(
  target: UploadTarget,
  record: BuildRecord,
): Promise<{ switched: boolean; previous: string | null }> {
  const live = await readLive(target);
  if (live?.pointer.build === record.id) return { switched: false, previous: live.pointer.previous };
  const pointer: LivePointer = {
    build: record.id,
    shards: record.shards,
    previous: live?.pointer.build ?? null,
    switchedAt: new Date().toISOString(),
  };
  if (!(await target.putIf(LIVE_KEY, JSON.stringify(pointer), live?.etag ?? null)))
    throw new UserError(
      "another upload or rollback switched the live build meanwhile: nothing was switched; run it again",
    );
  return { switched: true, previous: pointer.previous };
}

export async function uploadToR2(
  distDir: string,
  target: UploadTarget,
  { onProgress }: UploadOptions = {},
): Promise<UploadSummary> {
  const started = performance.now();
  // One generation for the whole upload, even if dist/ is republished meanwhile.
  const root = await realpath(distDir);
  const files = await publishedFiles(root);
  const marker = `${UPLOADS_PREFIX}${Date.now()}-${randomBytes(4).toString("hex")}.json`;
  await target.put([{ key: marker, body: json({ dist: root, startedAt: new Date().toISOString() }) }]);
  try {
    const present = new Set((await target.list(OBJECTS_PREFIX)).map((o) => o.key.slice(OBJECTS_PREFIX.length)));
    const sender = batchSender(target);
    const shards = shardCount(files.length);
    const manifest: ManifestShard[] = Array.from({ length: shards }, () => ({}));
    const queued = new Set<string>();
    const found = new Set<string>();
    let bytes = 0;
    for (let start = 0; start < files.length; start += READ_GROUP) {
      const group = files.slice(start, start + READ_GROUP);
      const bodies = await Promise.all(group.map((file) => readFile(join(root, file))));
      for (const [j, file] of group.entries()) {
        const body = bodies[j]!;
        const hash = sha256Hex(body);
        manifest[shardOf(file, shards)]![file] = [hash, body.byteLength, etagOf(body)];
        bytes += body.byteLength;
        if (present.has(hash)) {
          found.add(hash);
          continue;
        }
        if (queued.has(hash)) continue;
        queued.add(hash);
        await sender.add({ key: objectKey(hash), body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) });
      }
      onProgress?.(Math.min(start + READ_GROUP, files.length), files.length, sender.stats().sent);
    }
    await sender.done();
    // The build's id is its manifest's hash: the same build uploaded again is the same build.
    const id = sha256Hex(manifest.map((shard) => JSON.stringify(Object.entries(shard).sort())).join("\n")).slice(0, 16);
    const record: BuildRecord = { id, createdAt: new Date().toISOString(), files: files.length, bytes, shards };
    const existing = await readRecord(target, id);
    if (!existing) {
      const shardSender = batchSender(target);
      for (const [k, shard] of manifest.entries())
        await shardSender.add({ key: manifestShardKey(id, k), body: json(shard) });
      await shardSender.done();
      // The record last: a build without one is incomplete and never switched to.
      await target.put([{ key: buildRecordKey(id), body: json(record) }]);
    }
    const { switched, previous } = await switchTo(target, existing ?? record);
    const { sent, sentBytes } = sender.stats();
    return {
      build: id,
      files: files.length,
      objects: queued.size + found.size,
      sent,
      sentBytes,
      present: found.size,
      switched,
      previous,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await target.delete([marker]).catch(() => {});
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
  await switchTo(target, record);
  return { build: to, previous: live.pointer.build };
}

export interface PruneSummary {
  kept: string[];
  removedBuilds: string[];
  removedObjects: number;
}

/**
 * Removes every build but the newest `keep` and the live one, then every object no kept build uses. Refused while an
 * upload is under way (its marker is younger than an hour): it may rely on objects no complete build names yet.
 */
export async function prune(target: UploadTarget, keep: number): Promise<PruneSummary> {
  const fresh = (await target.list(UPLOADS_PREFIX)).filter((o) => Date.now() - o.uploaded < UPLOAD_MARKER_MS);
  if (fresh.length > 0)
    throw new UserError(
      `an upload is under way (or was killed less than an hour ago: ${fresh[0]!.key}): prune again when it is done`,
    );
  const builds = await listBuilds(target);
  const kept = builds.filter((b, i) => i < keep || b.live);
  const removed = builds.filter((b) => !kept.includes(b));
  const used = new Set<string>();
  for (const build of kept)
    for (let k = 0; k < build.shards; k++) {
      const shard = await target.read(manifestShardKey(build.id, k));
      if (!shard) throw new UserError(`build ${build.id} lacks ${manifestShardKey(build.id, k)}: nothing was pruned`);
      for (const [hash] of Object.values(JSON.parse(shard.text) as ManifestShard)) used.add(hash);
    }
  const deleteAll = async (keys: string[]) => {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) await target.delete(keys.slice(i, i + DELETE_BATCH));
  };
  // The records first: a build without its record is no longer listed, whatever is left of it.
  await deleteAll(removed.map((b) => buildRecordKey(b.id)));
  for (const build of removed) await deleteAll((await target.list(`${BUILDS_PREFIX}${build.id}/`)).map((o) => o.key));
  const unused = (await target.list(OBJECTS_PREFIX))
    .map((o) => o.key)
    .filter((key) => !used.has(key.slice(OBJECTS_PREFIX.length)));
  await deleteAll(unused);
  return { kept: kept.map((b) => b.id), removedBuilds: removed.map((b) => b.id), removedObjects: unused.length };
}
