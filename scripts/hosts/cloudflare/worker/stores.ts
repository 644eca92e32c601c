// Where the Worker reads dist/ files: Workers Static Assets (binding ASSETS) or an R2 bucket whose keys are
// dist/ paths (binding BUCKET). Both give a file's bytes and the Node server's ETag for them. Web APIs only
// (runs in workerd). No precompressed sibling is read: the edge compresses JSON itself, negotiating with the
// client, and a Worker cannot negotiate (it always sees Accept-Encoding: br, gzip).
import { etagOfBytes } from "../../../api/etag.ts";

export interface FileMeta {
  /** the strong ETag of these bytes (api/etag.ts), the same on every host */
  etag: string;
  /** bytes of the body */
  size: number;
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

export interface R2ObjectLike {
  size: number;
  customMetadata?: Record<string, string>;
}

export interface R2BucketLike {
  head(key: string): Promise<R2ObjectLike | null>;
  get(key: string): Promise<(R2ObjectLike & { arrayBuffer(): Promise<ArrayBuffer> }) | null>;
}

export interface Env {
  ASSETS?: AssetsBinding;
  BUCKET?: R2BucketLike;
}

/** R2 custom metadata keys written by the upload command (scripts/hosts/cloudflare/upload-r2.ts). */
export const R2_META = { etag: "etag" } as const;

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

/** R2 objects carry their ETag as custom metadata, so HEAD and 304 need no body read. */
export function r2Store(bucket: R2BucketLike): FileStore {
  const body = async (file: string) => {
    const object = await bucket.get(file);
    return object ? object.arrayBuffer() : null;
  };
  return {
    immutable: false,
    body,
    async read(file, wantBody) {
      const object = wantBody ? await bucket.get(file) : await bucket.head(file);
      if (!object) return null;
      let bytes =
        "arrayBuffer" in object ? await (object as { arrayBuffer(): Promise<ArrayBuffer> }).arrayBuffer() : null;
      let etag = object.customMetadata?.[R2_META.etag];
      // Uploaded by another tool: hash the bytes, as the Node server does.
      if (etag === undefined) {
        bytes ??= await body(file);
        if (bytes === null) return null;
        etag = await etagOfBytes(bytes);
      }
      return { meta: { etag, size: object.size }, body: bytes };
    },
  };
}

export function storeFor(env: Env): FileStore {
  if (env.BUCKET) return r2Store(env.BUCKET);
  if (env.ASSETS) return assetsStore(env.ASSETS);
  throw new Error("the Worker has neither an ASSETS nor a BUCKET binding: check wrangler.jsonc");
}
