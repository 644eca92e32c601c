// An R2 bucket in memory: the upload side (UploadTarget) and the Worker side (the BUCKET binding) over one Map, with
// R2's conditional put (an ETag per version) and prefix listing. For tests of the Worker module run in Node.
import { createHash } from "node:crypto";
import type { UploadTarget } from "../../scripts/hosts/cloudflare/upload-r2.ts";
import type { R2BucketLike } from "../../scripts/hosts/cloudflare/worker/stores.ts";

export function memoryBucket() {
  const objects = new Map<string, { bytes: Uint8Array; etag: string; uploaded: number }>();
  const gets: string[] = [];
  const store = (key: string, bytes: Uint8Array) =>
    objects.set(key, { bytes, etag: createHash("md5").update(bytes).digest("hex"), uploaded: Date.now() });
  const target: UploadTarget = {
    batch: { objects: 100, bytes: 4_000_000, concurrency: 2 },
    async read(key) {
      const o = objects.get(key);
      return o ? { text: new TextDecoder().decode(o.bytes), etag: o.etag } : null;
    },
    async put(list) {
      for (const o of list) store(o.key, o.body);
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
        .map(([key, o]) => ({ key, uploaded: o.uploaded }))
        .sort((a, b) => (a.key < b.key ? -1 : 1));
    },
    async delete(keys) {
      for (const key of keys) objects.delete(key);
    },
  };
  const binding: R2BucketLike = {
    async get(key) {
      gets.push(key);
      const o = objects.get(key);
      if (!o) return null;
      return {
        arrayBuffer: async () => o.bytes.slice().buffer as ArrayBuffer,
        text: async () => new TextDecoder().decode(o.bytes),
      };
    },
  };
  return { objects, target, binding, gets };
}
