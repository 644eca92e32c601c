// Where an upload writes: the bucket as a small interface (the local R2 through local/bucket-service.ts, or an
// S3-compatible API such as Cloudflare R2's through remote.ts), a meter of what goes through it, and a bounded pool.

/** One object to send. */
export interface UploadObject {
  key: string;
  body: Uint8Array;
}

export type ByteRange = { offset: number; length: number } | { suffix: number };

/** Where builds go: the local R2 (local/bucket-service.ts) or an S3-compatible API such as Cloudflare R2's (remote.ts). */
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

/** R2 deletes at most this many keys per call. */
export const DELETE_BATCH = 1000;

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

/** Runs `task` over `items`, `limit` at once. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) await task(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
