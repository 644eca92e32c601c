// The Worker's reads over R2 builds (r2-layout.ts): one build per request, chosen by the live pointer, whose
// manifest says what exists (no R2 read for a missing page, a bad slug or a key R2 would refuse) and where each body
// lies: one ranged read of a pack gives it gzip-compressed, kept at the edge forever by its hash (the ETag). A list
// page is one ranged read of its list's run (items o…o+L-1) inside an envelope written here, hashed here for its
// ETag, and kept at the edge by the run's id, limit and offset.
// Web APIs only (runs in workerd).
import { StorageFault } from "../../../api/runtime/build-index.ts";
import { etagOfBytes } from "../../../api/runtime/etag.ts";
import { PAGE_PREFIX, pageOfFile, pageSlice, pageSuffix } from "../../../api/runtime/page-envelope.ts";
import {
  entryOf,
  LAYOUT_FORMAT,
  LIVE_KEY,
  type ListEntry,
  type LivePointer,
  listOf,
  type ManifestShard,
  packKey,
  shardFor,
  shardKey,
} from "./r2-layout.ts";
import type { FileStore, R2BucketLike } from "./stores.ts";

/** How long an isolate answers from the pointer it read: after a switch, at most this long from the old build. */
export const POINTER_TTL_MS = 1000;
/** Manifest shards an isolate keeps (up to 8,192 paths each, about 4,000 on average: a few MB in all). */
const MAX_SHARDS = 16;
/** The edge cache's keys for immutable objects: a body by its hash, a manifest shard by its name. */
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

/** gzip bytes decoded, with the runtime's DecompressionStream. */
export const gunzip = (bytes: ArrayBuffer | Uint8Array): Promise<ArrayBuffer> =>
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();

/** Per isolate: the pointer (briefly) and the manifest shards it has read (by name: shared by every build).
 *  `pageTemplate`: where the route table looks for a list page (route-table.ts layout). */
export function r2Builds(pageTemplate: string): R2Builds {
  let pointer: { value: LivePointer | null; at: number } | undefined;
  let warned = false;
  const shards = new Map<string, ManifestShard>();

  return {
    async view(bucket, cache, waitUntil) {
      const counts = noReads();
      const reads = () => ({ ...counts });
      /**
       * An immutable object the live build names (or a range of a pack): the edge cache first, then R2 (and into the
       * cache). Missing, or shorter than the range, it is a StorageFault, and nothing is cached (H7).
       */
      const immutable = async (
        cacheKey: string,
        key: string,
        kind: ReadKind,
        range?: { offset: number; length: number },
      ): Promise<ArrayBuffer> => {
        const hit = await cache?.match(cacheUrl(cacheKey));
        if (hit) return hit.arrayBuffer();
        counts[kind]++;
        const object = await bucket.get(key, range ? { range } : undefined);
        if (!object) throw new StorageFault(key, "missing from the bucket");
        const bytes = await object.arrayBuffer();
        if (range && bytes.byteLength !== range.length)
          throw new StorageFault(
            key,
            `${bytes.byteLength} bytes at ${range.offset} where ${range.length} were expected`,
          );
        if (cache)
          waitUntil(
            cache.put(
              cacheUrl(cacheKey),
              new Response(bytes.slice(0), { headers: { "Cache-Control": "public, max-age=31536000, immutable" } }),
            ),
          );
        return bytes;
      };

      if (!pointer || Date.now() - pointer.at >= POINTER_TTL_MS) {
        counts.pointer++;
        const object = await bucket.get(LIVE_KEY);
        pointer = { value: object ? (JSON.parse(await object.text()) as LivePointer) : null, at: Date.now() };
      }
      const live = pointer.value;
      if (!live) return { build: null, reads };
      // A bucket another layout wrote is not read as if it were this one's: answered as if nothing were live.
      if (live.format !== LAYOUT_FORMAT) {
        if (!warned)
          console.error(
            `R2: the live build ${live.build} was uploaded in another layout of the bucket: upload it again with this version (npm run upload:r2)`,
          );
        warned = true;
        return { build: null, reads };
      }

      const shardOfFile = async (file: string): Promise<ManifestShard> => {
        const name = live.shards[shardFor(live.shards, file)]![1];
        let shard = shards.get(name);
        if (!shard) {
          // A build's shards are written before its pointer: a missing one is a storage fault, not a missing file.
          const bytes = await immutable(shardKey(name), shardKey(name), "manifest");
          shard = JSON.parse(new TextDecoder().decode(await gunzip(bytes))) as ManifestShard;
          if (shards.size >= MAX_SHARDS) shards.delete(shards.keys().next().value!);
          shards.set(name, shard);
        }
        return shard;
      };
      const located = async (file: string) => {
        const shard = await shardOfFile(file);
        const entry = entryOf(shard, file);
        return entry && { entry, pack: shard.packs[entry[3]]! };
      };
      /** The body as stored (gzip): one ranged read of its pack, cached by its ETag. */
      const stored = async ({ entry, pack }: NonNullable<Awaited<ReturnType<typeof located>>>) =>
        immutable(`bodies/${entry[1].slice(1, -1)}`, packKey(pack), "body", { offset: entry[4], length: entry[5] });

      /** A list page: its ETag (in the cached copy's header) and bytes. A page past the list's end does not exist. */
      const page = async (file: string): Promise<{ etag: string; body: ArrayBuffer } | null | undefined> => {
        const at = pageOfFile(pageTemplate, file);
        if (!at) return undefined;
        const shard = await shardOfFile(at.list);
        const list = listOf(shard, at.list);
        if (!list || at.offset > list[6].length) return null;
        return pageOf(list, shard.packs[list[2]]!, at.limit, at.offset);
      };
      const pageOf = async (list: ListEntry, pack: string, limit: number, offset: number) => {
        const [, run, , runOffset, , category, lengths] = list;
        const key = cacheUrl(`pages/${run}/${limit}/${offset}`);
        const hit = await cache?.match(key);
        if (hit) return { etag: hit.headers.get("ETag")!, body: await hit.arrayBuffer() };
        const slice = pageSlice(lengths, limit, offset);
        let items: Uint8Array = new Uint8Array(0);
        if (slice.length > 0) {
          counts.body++;
          const at = runOffset + slice.start;
          const object = await bucket.get(packKey(pack), { range: { offset: at, length: slice.length } });
          if (!object) throw new StorageFault(packKey(pack), "missing from the bucket");
          items = new Uint8Array(await object.arrayBuffer());
          if (items.byteLength !== slice.length)
            throw new StorageFault(
              packKey(pack),
              `${items.byteLength} bytes at ${at} where ${slice.length} were expected`,
            );
        }
        const encoder = new TextEncoder();
        const prefix = encoder.encode(PAGE_PREFIX);
        const suffix = encoder.encode(pageSuffix(lengths.length, limit, offset, JSON.stringify(category)));
        const bytes = new Uint8Array(prefix.byteLength + items.byteLength + suffix.byteLength);
        bytes.set(prefix, 0);
        bytes.set(items, prefix.byteLength);
        bytes.set(suffix, prefix.byteLength + items.byteLength);
        const etag = await etagOfBytes(bytes);
        if (cache)
          waitUntil(
            cache.put(
              key,
              new Response(bytes.slice(0), {
                headers: { ETag: etag, "Cache-Control": "public, max-age=31536000, immutable" },
              }),
            ),
          );
        return { etag, body: bytes.buffer };
      };
      return {
        build: live.build,
        reads,
        // Each build's files never change, but the next request may be another build's: nothing kept by path.
        immutable: false,
        async body(file) {
          const listed = await page(file);
          if (listed !== undefined && listed !== null) return listed.body;
          const found = await located(file);
          if (!found) throw new StorageFault(file, "not in the live build's manifest");
          return stored(found);
        },
        async read(file, wantBody) {
          // A page's ETag is its bytes' hash: read anyway, and kept for a GET whose If-None-Match does not match.
          const listed = await page(file);
          if (listed !== undefined)
            return listed && { meta: { etag: listed.etag, size: listed.body.byteLength }, body: listed.body };
          const found = await located(file);
          if (!found) return null;
          const [, etag, size, , , length] = found.entry;
          const bytes = wantBody ? await stored(found) : null;
          return { meta: { etag, size, gzipLength: length }, body: bytes };
        },
      };
    },
  };
}
