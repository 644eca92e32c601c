// The Worker's reads over R2 builds (r2-layout.ts): one build per request, chosen by the live pointer, whose
// manifest says what exists (no R2 read for a missing page, a bad slug or a key R2 would refuse) and where each body
// lies: one ranged read of a pack gives it (gzip-compressed, or a list's piece as it is), kept at the edge forever by
// its hash (the ETag). A list page is at most three ranged reads of its list's pieces (items o…o+L-1; pieces laid end
// to end in one pack in one read) inside an envelope written here, hashed here for its ETag, and kept at the edge by
// the list's id, limit and offset. The export is streamed from its parts, a few pieces at a time, never held whole.
// Web APIs only (runs in workerd).
import { StorageFault } from "../../../api/runtime/build-index.ts";
import { etagFromSha256Hex, etagOfBytes } from "../../../api/runtime/etag.ts";
import { joinSlices, pieceRanges, pieceSlices } from "../../../api/runtime/list-pieces.ts";
import { PAGE_PREFIX, pageOfFile, pageSuffix } from "../../../api/runtime/page-envelope.ts";
import {
  type BodyPiece,
  entryOf,
  LAYOUT_FORMAT,
  LIVE_KEY,
  type ListEntry,
  type LivePointer,
  listOf,
  listPieceSize,
  type ManifestShard,
  type PartedEntry,
  packKey,
  partedOf,
  type ShardEntry,
  shardFor,
  shardKey,
} from "./r2-layout.ts";
import type { Body, FileStore, R2BucketLike } from "./stores.ts";

/** How long an isolate answers from the pointer it read: after a switch, at most this long from the old build. */
export const POINTER_TTL_MS = 1000;
/** Manifest shards an isolate keeps (up to 4,096 keys each, about 770 on average: a few MB in all). */
const MAX_SHARDS = 32;
/** The export's pieces are read this many stored bytes at a time at most (pieces laid end to end in one range). */
const PARTS_READ_BYTES = 1 << 20;
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
      const keep = (key: string, bytes: ArrayBuffer | Uint8Array, headers: Record<string, string> = {}) => {
        if (cache)
          waitUntil(
            cache.put(
              cacheUrl(key),
              new Response(bytes.slice(0), {
                headers: { ...headers, "Cache-Control": "public, max-age=31536000, immutable" },
              }),
            ),
          );
      };
      /** A range of an object the live build names (or the whole object): R2, checked whole. Missing, or shorter than
       *  the range, it is a StorageFault, and nothing is cached (H7). */
      const get = async (key: string, kind: ReadKind, range?: { offset: number; length: number }) => {
        counts[kind]++;
        const object = await bucket.get(key, range ? { range } : undefined);
        if (!object) throw new StorageFault(key, "missing from the bucket");
        const bytes = await object.arrayBuffer();
        if (range && bytes.byteLength !== range.length)
          throw new StorageFault(
            key,
            `${bytes.byteLength} bytes at ${range.offset} where ${range.length} were expected`,
          );
        return bytes;
      };
      /** An immutable object (or a range of a pack): the edge cache first, then R2 (and into the cache). */
      const immutable = async (
        cacheKey: string,
        key: string,
        kind: ReadKind,
        range?: { offset: number; length: number },
      ): Promise<ArrayBuffer> => {
        const hit = await cache?.match(cacheUrl(cacheKey));
        if (hit) return hit.arrayBuffer();
        const bytes = await get(key, kind, range);
        keep(cacheKey, bytes);
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

      /** The shard holding `key` by the lookup rule (a page's is its list key's). */
      const shardOf = async (key: string): Promise<ManifestShard> => {
        const name = live.shards[shardFor(live.shards, key)]![1];
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

      /** A stored body: one ranged read of its pack, cached by its ETag (and its coding). */
      const stored = (entry: ShardEntry, packs: readonly string[]) => {
        const [, etag, , pack, offset, length, coding] = entry;
        const cacheKey = `${coding === "identity" ? "raw" : "bodies"}/${etag.slice(1, -1)}`;
        return immutable(cacheKey, packKey(packs[pack]!), "body", { offset, length });
      };

      /** A list page: its ETag (in the cached copy's header) and bytes. A page past the list's end does not exist. */
      const page = async (file: string): Promise<{ etag: string; body: ArrayBuffer } | null | undefined> => {
        const at = pageOfFile(pageTemplate, file);
        if (!at) return undefined;
        const shard = await shardOf(at.list);
        const list = listOf(shard, at.list);
        if (!list) return null;
        const total = list[3].reduce((sum, p) => sum + p[3].length, 0);
        if (at.offset > total) return null;
        return pageOf(list, total, shard.packs, at.limit, at.offset);
      };
      const pageOf = async (list: ListEntry, total: number, packs: string[], limit: number, offset: number) => {
        const [, id, category, pieces] = list;
        const key = `pages/${id}/${limit}/${offset}`;
        const hit = await cache?.match(cacheUrl(key));
        if (hit) return { etag: hit.headers.get("ETag")!, body: await hit.arrayBuffer() };
        const slices = pieceSlices(
          pieces.map((p) => p[3]),
          limit,
          offset,
        );
        // One ranged read per run of slices whose pieces lie end to end in one pack: between two of them, `][`.
        const places = pieces.map(([, pack, offset, lengths]) => ({ pack, offset, size: listPieceSize(lengths) }));
        const parts: Uint8Array[] = [];
        for (const range of pieceRanges(slices, places)) {
          const key = packKey(packs[range.pack as number]!);
          const bytes = new Uint8Array(await get(key, "body", { offset: range.from, length: range.to - range.from }));
          for (const { start, end } of range.parts) parts.push(bytes.subarray(start, end));
        }
        const items = joinSlices(parts);
        const encoder = new TextEncoder();
        const prefix = encoder.encode(PAGE_PREFIX);
        const suffix = encoder.encode(pageSuffix(total, limit, offset, JSON.stringify(category)));
        const bytes = new Uint8Array(prefix.byteLength + items.byteLength + suffix.byteLength);
        bytes.set(prefix, 0);
        bytes.set(items, prefix.byteLength);
        bytes.set(suffix, prefix.byteLength + items.byteLength);
        const etag = await etagOfBytes(bytes);
        keep(key, bytes, { ETag: etag });
        return { etag, body: bytes.buffer };
      };

      /** The export: its parts in order, the pieces' items without their brackets, a few pieces read at a time (those
       *  laid end to end in one pack, up to PARTS_READ_BYTES, in one range), each kept at the edge by its ETag. */
      async function* partsOf(entry: PartedEntry, packs: readonly string[]): AsyncGenerator<Uint8Array> {
        const encoder = new TextEncoder();
        for (const part of entry[3]) {
          if (typeof part === "string") {
            yield encoder.encode(part);
            continue;
          }
          const cacheKey = (p: BodyPiece) => `bodies/${etagFromSha256Hex(p[0]).slice(1, -1)}`;
          for (let i = 0; i < part.length; ) {
            const hit = await cache?.match(cacheUrl(cacheKey(part[i]!)));
            let gz: Uint8Array[];
            let n = 1;
            if (hit) gz = [new Uint8Array(await hit.arrayBuffer())];
            else {
              // The next pieces that lie end to end with this one, up to the read's bound.
              const [, pack, offset, length] = part[i]!;
              let end = offset + length;
              while (i + n < part.length) {
                const [, p, o, l] = part[i + n]!;
                if (p !== pack || o !== end || end + l - offset > PARTS_READ_BYTES) break;
                end += l;
                n++;
              }
              const bytes = new Uint8Array(await get(packKey(packs[pack]!), "body", { offset, length: end - offset }));
              gz = part.slice(i, i + n).map(([, , o, l]) => bytes.subarray(o - offset, o - offset + l));
              for (const [k, piece] of part.slice(i, i + n).entries()) keep(cacheKey(piece), gz[k]!);
            }
            for (const [k, bytes] of gz.entries()) {
              const body = new Uint8Array(await gunzip(bytes));
              const size = part[i + k]![4];
              if (body.byteLength !== size)
                throw new StorageFault(
                  packKey(packs[part[i + k]![1]]!),
                  `a piece of ${size} bytes decoded to ${body.byteLength}`,
                );
              yield i + k === 0 ? body.subarray(1, -1) : joinSlices([new Uint8Array(0), body.subarray(1, -1)]);
            }
            i += n;
          }
        }
      }
      /** The export as a stream: read up to its first piece before it is answered (a storage fault before the status
       *  line is a 503); a fault after it aborts the stream, so a client never takes a cut body for a whole one. */
      const partedBody = async (file: string, entry: PartedEntry, packs: readonly string[]): Promise<Body> => {
        const chunks = partsOf(entry, packs);
        const ready: Uint8Array[] = [];
        for (let n = await chunks.next(); ; n = await chunks.next()) {
          if (n.done) break;
          ready.push(n.value);
          if (ready.length > 1 || typeof entry[3][0] !== "string") break;
        }
        let sent = ready.reduce((sum, c) => sum + c.byteLength, 0);
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of ready) controller.enqueue(chunk);
          },
          async pull(controller) {
            try {
              const n = await chunks.next();
              if (n.done) return controller.close();
              sent += n.value.byteLength;
              controller.enqueue(n.value);
            } catch (e) {
              console.error(`${file}: the stream was cut after ${sent} bytes: ${(e as Error).message.slice(0, 300)}`);
              controller.error(e);
            }
          },
          async cancel() {
            await chunks.return(undefined);
          },
        });
        // workerd: a stream of a declared length (Content-Length), which fails if the parts do not give it.
        const Fixed = (
          globalThis as { FixedLengthStream?: new (length: number) => TransformStream<Uint8Array, Uint8Array> }
        ).FixedLengthStream;
        return Fixed ? stream.pipeThrough(new Fixed(entry[2])) : stream;
      };

      /** What the build says of a file that is no page: its stored entry, or its parts; null when it names none. */
      const located = async (file: string) => {
        const shard = await shardOf(file);
        const entry = entryOf(shard, file);
        if (entry) return { shard, entry, parted: undefined };
        const parted = partedOf(shard, file);
        return parted ? { shard, entry: undefined, parted } : null;
      };
      const bodyOf = async (file: string, found: NonNullable<Awaited<ReturnType<typeof located>>>): Promise<Body> =>
        found.entry ? stored(found.entry, found.shard.packs) : partedBody(file, found.parted, found.shard.packs);

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
          return bodyOf(file, found);
        },
        async read(file, wantBody) {
          // A page's ETag is its bytes' hash: read anyway, and kept for a GET whose If-None-Match does not match.
          const listed = await page(file);
          if (listed !== undefined)
            return listed && { meta: { etag: listed.etag, size: listed.body.byteLength }, body: listed.body };
          const found = await located(file);
          if (!found) return null;
          const body = wantBody ? await bodyOf(file, found) : null;
          if (found.parted) return { meta: { etag: found.parted[1], size: found.parted[2] }, body };
          const [, etag, size, , , length, coding] = found.entry;
          return { meta: { etag, size, ...(coding === "gzip" ? { gzipLength: length } : {}) }, body };
        },
      };
    },
  };
}
