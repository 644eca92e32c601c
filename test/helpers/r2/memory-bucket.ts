// An R2 bucket in memory: the upload side (UploadTarget) and the Worker side (the BUCKET binding) over one Map, with
// R2's conditional put (an ETag per version), ranged reads and prefix listing. For tests of the Worker module run in
// Node.
import { createHash } from "node:crypto";
import type { ByteRange, UploadTarget } from "../../../scripts/hosts/cloudflare/r2/target.ts";
import type { R2BucketLike } from "../../../scripts/hosts/cloudflare/worker/stores.ts";

const slice = (bytes: Uint8Array, range?: ByteRange) =>
  range === undefined
    ? bytes.slice()
    : "suffix" in range
      ? bytes.slice(Math.max(0, bytes.byteLength - range.suffix))
      : bytes.slice(range.offset, range.offset + range.length);

export function memoryBucket() {
  const objects = new Map<string, { bytes: Uint8Array; etag: string; uploaded: number }>();
  const gets: string[] = [];
  // A plain copy: a Buffer's slice() shares its (possibly pooled) memory, and `.buffer` would be the whole pool.
  const store = (key: string, body: Uint8Array) =>
    objects.set(key, {
      bytes: new Uint8Array(body),
      etag: createHash("md5").update(body).digest("hex"),
      uploaded: Date.now(),
    });
  const target: UploadTarget = {
    batch: { objects: 100, bytes: 4_000_000, concurrency: 2 },
    packBytes: 256 * 1024,
    partBytes: 64 * 1024,
    async read(key) {
      const o = objects.get(key);
      return o ? { text: new TextDecoder().decode(o.bytes), etag: o.etag } : null;
    },
    async readBytes(key, range) {
      const o = objects.get(key);
      return o ? slice(o.bytes, range) : null;
    },
    async put(list) {
      for (const o of list) store(o.key, o.body);
    },
    async putParts(key, body) {
      store(key, body);
    },
    async putIf(key, text, etag) {
      const old = objects.get(key);
      if (etag === null ? old !== undefined : old?.etag !== etag) return false;
      store(key, new TextEncoder().encode(text));
      return true;
    },
    async list(prefix) {
      return [...objects]
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, o]) => ({ key, uploaded: o.uploaded, size: o.bytes.byteLength }))
        .sort((a, b) => (a.key < b.key ? -1 : 1));
    },
    async delete(keys) {
      for (const key of keys) objects.delete(key);
    },
  };
  const binding: R2BucketLike = {
    async get(key, options) {
      gets.push(key);
      const o = objects.get(key);
      if (!o) return null;
      const bytes = slice(o.bytes, options?.range);
      return {
        arrayBuffer: async () => bytes.buffer as ArrayBuffer,
        text: async () => new TextDecoder().decode(bytes),
      };
    },
  };
  return { objects, target, binding, gets };
}
