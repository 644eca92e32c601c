// dist/ → an R2 bucket whose keys are dist/ paths, sending only what changed since the last upload.
// The bucket keeps a small state object (UPLOAD_STATE_KEY: key → ETag of what was sent); every published file is
// hashed (the hash is the Node server's ETag, stored as the object's custom metadata so the Worker never hashes),
// objects whose hash differs are sent, keys no longer built are deleted, and the state is written last.
import fg from "fast-glob";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { isPublished } from "../adapters/cloudflare.ts";
import { R2_META } from "../adapters/cloudflare/stores.ts";
import { loadRouteTable } from "../server/start-server.ts";
import { etagOf } from "../server/file-cache.ts";

/** Never served: the resolver answers no dotfile. Written after every object, so a failed upload is redone. */
export const UPLOAD_STATE_KEY = ".upload-state.json";

/** What the command needs of a bucket: Miniflare's local R2Bucket and the Workers R2 binding both have it. */
export interface R2Target {
  get(key: string): Promise<{ text(): Promise<string> } | null>;
  put(key: string, value: Uint8Array | string, options?: { customMetadata?: Record<string, string>; httpMetadata?: { contentType?: string } }): Promise<unknown>;
  delete(keys: string | string[]): Promise<void>;
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
  concurrency?: number;
  onProgress?: (done: number, total: number, sent: number) => void;
}

/** R2 deletes at most this many keys per call. */
const DELETE_BATCH = 1000;

async function readState(bucket: R2Target): Promise<UploadState | undefined> {
  const object = await bucket.get(UPLOAD_STATE_KEY);
  if (!object) return undefined;
  try {
    const state = JSON.parse(await object.text()) as UploadState;
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
  return files.filter((f) => isPublished(table, f)).sort();
}

export async function uploadToR2(distDir: string, bucket: R2Target, { full = false, concurrency = 16, onProgress }: UploadOptions = {}): Promise<UploadSummary> {
  const started = performance.now();
  // One generation for the whole upload, even if dist/ is republished meanwhile.
  const root = await realpath(distDir);
  const keys = await publishedFiles(root);
  const previous = full ? undefined : await readState(bucket);
  const before = previous?.objects ?? {};
  const etags: string[] = new Array(keys.length);
  let done = 0;
  let sent = 0;
  let sentBytes = 0;
  let next_ = 0;
  const worker = async () => {
    for (let i = next_++; i < keys.length; i = next_++) {
      const key = keys[i]!;
      const body = await readFile(join(root, key));
      const etag = etagOf(body);
      etags[i] = etag;
      if (before[key] !== etag) {
        // A plain Uint8Array: Miniflare's bridge refuses Buffer's subclass.
        await bucket.put(key, new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { customMetadata: { [R2_META.etag]: etag } });
        sent++;
        sentBytes += body.byteLength;
      }
      onProgress?.(++done, keys.length, sent);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, keys.length)) }, worker));
  const next: UploadState = { format: 1, objects: Object.fromEntries(keys.map((key, i) => [key, etags[i]!])) };
  const removed = Object.keys(before).filter((key) => !(key in next.objects));
  for (let i = 0; i < removed.length; i += DELETE_BATCH) await bucket.delete(removed.slice(i, i + DELETE_BATCH));
  await bucket.put(UPLOAD_STATE_KEY, JSON.stringify(next), { httpMetadata: { contentType: "application/json" } });
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
