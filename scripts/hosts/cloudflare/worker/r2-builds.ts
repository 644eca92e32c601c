// The Worker's reads over R2 builds (r2-layout.ts): one build per request, chosen by the live pointer, whose
// manifest says what exists (no R2 read for a missing page, a bad slug or a key R2 would refuse) and where each body
// lies (content-addressed, so cached at the edge forever by its hash). Web APIs only (runs in workerd).
import { LIVE_KEY, type LivePointer, type ManifestShard, manifestShardKey, objectKey, shardOf } from "./r2-layout.ts";
import type { FileStore, R2BucketLike } from "./stores.ts";

/** How long an isolate answers from the pointer it read: after a switch, at most this long from the old build. */
export const POINTER_TTL_MS = 1000;
/** Manifest shards an isolate keeps (a few dozen kB each). */
const MAX_SHARDS = 256;
/** The edge cache's keys for immutable objects: a body by its hash, a manifest shard by its build. */
const cacheUrl = (key: string) => `https://r2-objects.invalid/${key}`;

export interface CacheLike {
  match(request: string): Promise<Response | undefined>;
  put(request: string, response: Response): Promise<void>;
}

/** What a request can read from R2: the live pointer, manifest shards, bodies. */
export const READ_KINDS = ["pointer", "manifest", "body"] as const;
export type ReadKind = (typeof READ_KINDS)[number];
/** R2 reads by kind. */
export type R2Reads = Record<ReadKind, number>;

export const noReads = (): R2Reads => ({ pointer: 0, manifest: 0, body: 0 });
export const totalReads = (reads: R2Reads): number => READ_KINDS.reduce((sum, kind) => sum + reads[kind], 0);

/** X-R2-Reads (the total) and X-R2-Read-Kinds (`pointer=0 manifest=1 body=1`): for tests and the benchmark. */
export function countedReads(headers: Headers, reads: R2Reads = noReads()): void {
  headers.set("X-R2-Reads", String(totalReads(reads)));
  headers.set("X-R2-Read-Kinds", READ_KINDS.map((kind) => `${kind}=${reads[kind]}`).join(" "));
}

/** X-R2-Read-Kinds read back; NaN for a kind it lacks (an answer that did not count). */
export function readKindsOf(header: string | null): R2Reads {
  const kinds = new Map((header ?? "").split(" ").map((pair) => pair.split("=") as [string, string]));
  const reads = noReads();
  for (const kind of READ_KINDS) reads[kind] = Number(kinds.get(kind) ?? Number.NaN);
  return reads;
}

/** One request's view: the build that answers it, and its R2 reads. */
export interface BuildView extends FileStore {
  build: string;
  reads(): R2Reads;
}

export interface R2Builds {
  /** The live build for one request, or null when the bucket has none yet. */
  view(
    bucket: R2BucketLike,
    cache: CacheLike | undefined,
    waitUntil: (p: Promise<unknown>) => void,
  ): Promise<BuildView | { build: null; reads(): R2Reads }>;
}

/** Per isolate: the pointer (briefly) and the manifest shards it has read. */
export function r2Builds(): R2Builds {
  let pointer: { value: LivePointer | null; at: number } | undefined;
  const shards = new Map<string, ManifestShard>();

  return {
    async view(bucket, cache, waitUntil) {
      const counts = noReads();
      const reads = () => ({ ...counts });
      const get = (key: string, kind: ReadKind) => {
        counts[kind]++;
        return bucket.get(key);
      };
      /** An immutable object's bytes: the edge cache first, then R2 (and into the cache). */
      const immutable = async (key: string, kind: ReadKind): Promise<ArrayBuffer | null> => {
        const hit = await cache?.match(cacheUrl(key));
        if (hit) return hit.arrayBuffer();
        const object = await get(key, kind);
        if (!object) return null;
        const bytes = await object.arrayBuffer();
        if (cache)
          waitUntil(
            cache.put(
              cacheUrl(key),
              new Response(bytes.slice(0), { headers: { "Cache-Control": "public, max-age=31536000, immutable" } }),
            ),
          );
        return bytes;
      };

      if (!pointer || Date.now() - pointer.at >= POINTER_TTL_MS) {
        const object = await get(LIVE_KEY, "pointer");
        pointer = { value: object ? (JSON.parse(await object.text()) as LivePointer) : null, at: Date.now() };
      }
      const live = pointer.value;
      if (!live) return { build: null, reads };

      const shardFor = async (file: string): Promise<ManifestShard> => {
        const key = manifestShardKey(live.build, shardOf(file, live.shards));
        let shard = shards.get(key);
        if (!shard) {
          const bytes = await immutable(key, "manifest");
          // A build's shards are written before its pointer: a missing one is a broken bucket, not a missing file.
          if (!bytes) throw new Error(`R2: ${key} is missing for the live build`);
          shard = JSON.parse(new TextDecoder().decode(bytes)) as ManifestShard;
          if (shards.size >= MAX_SHARDS) shards.delete(shards.keys().next().value!);
          shards.set(key, shard);
        }
        return shard;
      };
      const entry = async (file: string) => (await shardFor(file))[file];
      const body = async (file: string) => {
        const found = await entry(file);
        return found ? immutable(objectKey(found[0]), "body") : null;
      };
      return {
        build: live.build,
        reads,
        // Each build's files never change, but the next request may be another build's: nothing kept by path.
        immutable: false,
        body,
        async read(file, wantBody) {
          const found = await entry(file);
          if (!found) return null;
          const bytes = wantBody ? await immutable(objectKey(found[0]), "body") : null;
          if (wantBody && !bytes) throw new Error(`R2: the body of ${file} is missing for the live build`);
          return { meta: { etag: found[2], size: found[1] }, body: bytes };
        },
      };
    },
  };
}
