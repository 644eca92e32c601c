// dist/ → an R2 bucket whose keys are dist/ paths, sending only what changed since the last upload.
// The bucket keeps a small state object (UPLOAD_STATE_KEY: key → ETag of what was sent); every published file is
// hashed (the hash is the Node server's ETag, stored as the object's custom metadata so the Worker never hashes),
// objects whose hash differs are sent, keys no longer built are deleted, and the state is written last.

import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { etagOf } from "../../api/etag-node.ts";
import { loadRouteTable } from "../../api/load-route-table.ts";
import { publishedPathFilter } from "./adapter.ts";

/** Never served: the resolver answers no dotfile. Written after every object, so a failed upload is redone. */
export const UPLOAD_STATE_KEY = ".upload-state.json";

/** One object to send: its key, bytes and (for dist/ files) the Node server's ETag, stored as custom metadata. */
export interface UploadObject {
  key: string;
  body: Uint8Array;
  etag?: string;
}

/** Where an upload goes: the local R2 (uploader-worker.ts) or Cloudflare's R2 over its S3 API (remote-r2.ts). */
export interface UploadTarget {
  /** objects and bytes per put() call, and how many calls run at once */
  batch: { objects: number; bytes: number; concurrency: number };
  /** an object's text, or null when there is none */
  readText(key: string): Promise<string | null>;
  put(objects: UploadObject[]): Promise<void>;
  /** at most DELETE_BATCH keys */
  delete(keys: string[]): Promise<void>;
}

interface UploadState {
  format: 1;
  /** key → the ETag of the bytes sent */
  objects: Record<string, string>;
}

export interface UploadSummary {
  /** published files in dist/ */
  files: number;
  sent: number;
  sentBytes: number;
  unchanged: number;
  deleted: number;
  /** true when there was no usable state: every object was sent */
  first: boolean;
  seconds: number;
}

export interface UploadOptions {
  /** ignore the bucket's state and send everything */
  full?: boolean;
  onProgress?: (done: number, total: number, sent: number) => void;
}

/** R2 deletes at most this many keys per call. */
export const DELETE_BATCH = 1000;

/** Files read and hashed at once. */
const READ_GROUP = 32;

async function readState(target: UploadTarget): Promise<UploadState | undefined> {
  const text = await target.readText(UPLOAD_STATE_KEY);
  if (text === null) return undefined;
  try {
    const state = JSON.parse(text) as UploadState;
    return state.format === 1 && typeof state.objects === "object" ? state : undefined;
  } catch {
    return undefined;
  }
}

/** The files of one build that the Worker can answer with, as bucket keys (dist/ paths with `/`). */
export async function publishedFiles(distDir: string): Promise<string[]> {
  const root = await realpath(distDir);
  const table = await loadRouteTable(root);
  const files = await fg("**", { cwd: root, dot: false, onlyFiles: true, followSymbolicLinks: false });
  return files.filter(publishedPathFilter(table)).sort();
}

export async function uploadToR2(
  distDir: string,
  target: UploadTarget,
  { full = false, onProgress }: UploadOptions = {},
): Promise<UploadSummary> {
  const started = performance.now();
  // One generation for the whole upload, even if dist/ is republished meanwhile.
  const root = await realpath(distDir);
  const keys = await publishedFiles(root);
  const previous = full ? undefined : await readState(target);
  const before = previous?.objects ?? {};
  const etags: string[] = new Array(keys.length);
  let sent = 0;
  let sentBytes = 0;
  // Changed objects are gathered into batches; a few batches are in flight while the next files are read.
  let batch: UploadObject[] = [];
  let batchBytes = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const flush = async () => {
    if (batch.length > 0) {
      const objects = batch;
      const bytes = batchBytes;
      batch = [];
      batchBytes = 0;
      const call: Promise<void> = target.put(objects).then(
        () => {
          sent += objects.length;
          sentBytes += bytes;
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
  for (let start = 0; start < keys.length; start += READ_GROUP) {
    const group = keys.slice(start, start + READ_GROUP);
    const bodies = await Promise.all(group.map((key) => readFile(join(root, key))));
    for (const [j, key] of group.entries()) {
      const body = bodies[j]!;
      const etag = etagOf(body);
      etags[start + j] = etag;
      if (before[key] === etag) continue;
      batch.push({ key, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), etag });
      batchBytes += body.byteLength;
      if (batch.length >= target.batch.objects || batchBytes >= target.batch.bytes) await flush();
    }
    onProgress?.(Math.min(start + READ_GROUP, keys.length), keys.length, sent);
  }
  await flush();
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  const next: UploadState = { format: 1, objects: Object.fromEntries(keys.map((key, i) => [key, etags[i]!])) };
  const removed = Object.keys(before).filter((key) => !(key in next.objects));
  for (let i = 0; i < removed.length; i += DELETE_BATCH) await target.delete(removed.slice(i, i + DELETE_BATCH));
  await target.put([{ key: UPLOAD_STATE_KEY, body: new TextEncoder().encode(JSON.stringify(next)) }]);
  return {
    files: keys.length,
    sent,
    sentBytes,
    unchanged: keys.length - sent,
    deleted: removed.length,
    first: previous === undefined,
    seconds: (performance.now() - started) / 1000,
  };
}
