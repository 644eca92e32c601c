// Where the Worker reads dist/ files: Workers Static Assets (binding ASSETS), or builds in an R2 bucket (binding
// BUCKET, r2-builds.ts). Both give a file's bytes and its ETag. Web APIs only (runs in workerd). Static Assets read no
// precompressed sibling (the edge compresses JSON itself); R2 stores every body gzip-compressed, and gives it so.
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
  /** null: no such file */
  read(file: string, wantBody: boolean): Promise<Read | null>;
  body(file: string): Promise<ArrayBuffer | null>;
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
}

/** A dist/ path as a URL path for the assets binding (any host name: the binding ignores it). */
const assetUrl = (file: string) => `https://assets.invalid/${file.split("/").map(encodeURIComponent).join("/")}`;

/** Static Assets keep no metadata of ours: the ETag is hashed from the bytes, once per file per isolate (the Worker remembers it). */
export function assetsStore(assets: AssetsBinding): FileStore {
  const body = async (file: string) => {
    const res = await assets.fetch(assetUrl(file));
    if (res.status !== 200) {
      await res.body?.cancel();
      return null;
    }
    return res.arrayBuffer();
  };
  return {
    immutable: true,
    body,
    async read(file) {
      const bytes = await body(file);
      if (bytes === null) return null;
      return { meta: { etag: await etagOfBytes(bytes), size: bytes.byteLength }, body: bytes };
    },
  };
}
