// Where the Worker reads dist/ files: Workers Static Assets (binding ASSETS: a pages build's files, or a runs build's,
// whose pages are assembled from its lists' pieces), or builds in an R2 bucket (binding BUCKET, r2-builds.ts). Both give a file's bytes and its ETag. Web APIs only (runs in workerd). Static Assets read no
// precompressed sibling (the edge compresses JSON itself); R2 stores every body gzip-compressed, and gives it so.
// What exists is the build's to say (its index, or R2's manifest): a body it names that the storage cannot give whole
// is a StorageFault (answered 503, H7), never "no such file".
import {
  BUILD_INDEX_FILE,
  BuildIndex,
  type ListIndex,
  type NamedPage,
  StorageFault,
} from "../../../api/runtime/build-index.ts";
import { etagOfBytes } from "../../../api/runtime/etag.ts";
import { joinSlices } from "../../../api/runtime/list-pieces.ts";
import { PAGE_PREFIX } from "../../../api/runtime/page-envelope.ts";
import { fill } from "../../../api/runtime/route-table.ts";

export interface FileMeta {
  /** the strong ETag of these bytes (api/runtime/etag.ts), the same on every host */
  etag: string;
  /** bytes of the body */
  size: number;
  /** R2: the body is stored gzip-compressed, this many bytes, and read() and body() give it so */
  gzipLength?: number;
}

/** A body: its bytes, or (the export, stored in parts) a stream of them. */
export type Body = ArrayBuffer | ReadableStream<Uint8Array>;

export interface Read {
  meta: FileMeta;
  /** null when only the metadata was read */
  body: Body | null;
}

export interface FileStore {
  /** true when files never change under a running Worker (assets belong to one Worker version; R2 objects do change) */
  immutable: boolean;
  /** null: the build names no such file; a StorageFault when it does and the storage cannot give it whole */
  read(file: string, wantBody: boolean): Promise<Read | null>;
  /** a file `read` found: its body, or a StorageFault */
  body(file: string): Promise<Body>;
}

export interface AssetsBinding {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

export interface R2BucketLike {
  get(
    key: string,
    options?: { range?: { offset: number; length: number } },
  ): Promise<{ arrayBuffer(): Promise<ArrayBuffer>; text(): Promise<string> } | null>;
}

export interface Env {
  ASSETS?: AssetsBinding;
  BUCKET?: R2BucketLike;
  /** "1": every answer says how many R2 reads it took (X-R2-Reads, and by kind X-R2-Read-Kinds), for tests and the benchmark */
  COUNT_R2_READS?: string;
  /** "1": the Worker listens on a loopback address only (npm run start:cloudflare sets it): /mcp refuses a foreign Origin */
  MCP_LOOPBACK_ONLY?: string;
}

/** A dist/ path as a URL path for the assets binding (any host name: the binding ignores it). */
const assetUrl = (file: string) => `https://assets.invalid/${file.split("/").map(encodeURIComponent).join("/")}`;

/** One asset's bytes; a StorageFault for any answer but 200 or a body of another size than `size` (when given). */
async function fetchAsset(assets: AssetsBinding, file: string, size?: number): Promise<ArrayBuffer> {
  let res: Response;
  try {
    res = await assets.fetch(assetUrl(file));
  } catch (e) {
    throw new StorageFault(file, `the assets binding failed: ${(e as Error).message}`);
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new StorageFault(file, `the assets binding answered ${res.status}`);
  }
  const bytes = await res.arrayBuffer();
  if (size !== undefined && bytes.byteLength !== size)
    throw new StorageFault(file, `${bytes.byteLength} bytes where the build wrote ${size}`);
  return bytes;
}

/** Where a page's items lie in its list's pieces: each piece it touches (its id and body's size), and the bytes of the
 *  page's items in that piece's body. */
export function pagePieces(list: ListIndex, limit: number, offset: number) {
  const page = list.slice(limit, offset);
  const touched: { id: string; size: number; start: number; end: number }[] = [];
  let first = 0;
  for (const [id, items] of list.pieces) {
    const piece = list.slice(items, first);
    first += items;
    const from = Math.max(page.start, piece.start);
    const to = Math.min(page.start + page.length, piece.start + piece.length);
    if (from < to)
      touched.push({ id, size: piece.length + 2, start: from - piece.start + 1, end: to - piece.start + 1 });
  }
  return touched;
}

/**
 * Static Assets keep no metadata of ours: the build's index (build-index.json, read once per isolate) says what
 * exists and its size; the ETag is hashed from the bytes, once per file per isolate (the Worker remembers it). A page
 * of a runs build (no page files) is assembled from its list's pieces (at most three piece files). `pageTemplate`,
 * `pieceTemplate`: where the route table looks for a list page and a piece (route-table.ts layout).
 */
export function assetsStore(assets: AssetsBinding, pageTemplate: string, pieceTemplate: string): FileStore {
  let index: Promise<BuildIndex> | undefined;
  const indexed = () => {
    // A failed read is not kept: the next request tries again.
    index ??= fetchAsset(assets, BUILD_INDEX_FILE).then(
      (bytes) => BuildIndex.parse(new TextDecoder().decode(bytes), pageTemplate),
      (e) => {
        index = undefined;
        throw e;
      },
    );
    return index;
  };
  /** A page of a runs build: its items from the piece files, in the envelope. */
  const assembled = async (page: NamedPage): Promise<Uint8Array> => {
    const slices = await Promise.all(
      pagePieces(page.list, page.limit, page.offset).map(async ({ id, size, start, end }) =>
        new Uint8Array(await fetchAsset(assets, fill(pieceTemplate, { piece: `${id}.json` }), size)).subarray(
          start,
          end,
        ),
      ),
    );
    const encoder = new TextEncoder();
    const prefix = encoder.encode(PAGE_PREFIX);
    const items = joinSlices(slices);
    const suffix = encoder.encode(page.list.suffix(page.limit, page.offset));
    const bytes = new Uint8Array(prefix.byteLength + items.byteLength + suffix.byteLength);
    bytes.set(prefix, 0);
    bytes.set(items, prefix.byteLength);
    bytes.set(suffix, prefix.byteLength + items.byteLength);
    return bytes;
  };
  const body = async (file: string): Promise<ArrayBuffer> => {
    const built = await indexed();
    const page = built.layout === "runs" ? built.page(file) : undefined;
    if (page) return (await assembled(page)).slice().buffer;
    return fetchAsset(assets, file, built.sizeOf(file));
  };
  return {
    immutable: true,
    body,
    async read(file) {
      const size = (await indexed()).sizeOf(file);
      if (size === undefined) return null;
      const bytes = await body(file);
      return { meta: { etag: await etagOfBytes(bytes), size }, body: bytes };
    },
  };
}
