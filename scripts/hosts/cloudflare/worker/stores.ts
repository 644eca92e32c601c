// Where the Worker reads dist/ files: Workers Static Assets (binding ASSETS), or builds in an R2 bucket (binding
// BUCKET, r2-builds.ts). Both give a file's bytes and its ETag. Web APIs only (runs in workerd). Static Assets read no
// precompressed sibling (the edge compresses JSON itself); R2 stores every body gzip-compressed, and gives it so.
// What exists is the build's to say (its index, or R2's manifest): a body it names that the storage cannot give whole
// is a StorageFault (answered 503, H7), never "no such file".
import { BUILD_INDEX_FILE, BuildIndex, StorageFault } from "../../../api/runtime/build-index.ts";
import { etagOfBytes } from "../../../api/runtime/etag.ts";

export interface FileMeta {
  /** the strong ETag of these bytes (api/runtime/etag.ts), the same on every host */
  etag: string;
  /** bytes of the body */
  size: number;
  /** R2: the body is stored gzip-compressed, this many bytes, and read() and body() give it so */
  gzipLength?: number;
}

export interface Read {
  meta: FileMeta;
  /** null when only the metadata was read */
  body: ArrayBuffer | null;
}

export interface FileStore {
  /** true when files never change under a running Worker (assets belong to one Worker version; R2 objects do change) */
  immutable: boolean;
  /** null: the build names no such file; a StorageFault when it does and the storage cannot give it whole */
  read(file: string, wantBody: boolean): Promise<Read | null>;
  /** a file `read` found: its body, or a StorageFault */
  body(file: string): Promise<ArrayBuffer>;
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

/**
 * Static Assets keep no metadata of ours: the build's index (build-index.json, read once per isolate) says what
 * exists and its size; the ETag is hashed from the bytes, once per file per isolate (the Worker remembers it).
 * `pageTemplate`: where the route table looks for a list page.
 */
export function assetsStore(assets: AssetsBinding, pageTemplate: string): FileStore {
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
  const body = async (file: string) => fetchAsset(assets, file, (await indexed()).sizeOf(file));
  return {
    immutable: true,
    body,
    async read(file) {
      const size = (await indexed()).sizeOf(file);
      if (size === undefined) return null;
      const bytes = await fetchAsset(assets, file, size);
      return { meta: { etag: await etagOfBytes(bytes), size }, body: bytes };
    },
  };
}
