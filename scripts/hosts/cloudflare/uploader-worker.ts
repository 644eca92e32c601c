// The local R2 upload path: a second Worker in the same Miniflare, bound to the same bucket, that takes a batch of
// objects in one request and puts them inside workerd. Each put from Node through Miniflare's bridge is one round
// trip (~113 objects/s); one request per batch is not.
// Batch body: a 4-byte big-endian header length, the header (JSON: [{ k: key, n: bytes, e?: etag }]), then the
// objects' bytes one after the other.

import type { UploadObject, UploadTarget } from "./upload-r2.ts";
import { R2_META } from "./worker/stores.ts";

export const UPLOADER_NAME = "r2-uploader";
export const UPLOADER_BINDING = "BUCKET";

/** Runs in workerd: Web APIs only. Puts run concurrently, bounded so one batch never opens thousands at once. */
export const UPLOADER_SOURCE = `
const META = ${JSON.stringify(R2_META.etag)};
const PARALLEL = 64;
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    try {
      if (request.method === "GET" && url.pathname === "/get") {
        const object = await env.${UPLOADER_BINDING}.get(url.searchParams.get("key"));
        return object ? new Response(object.body) : new Response(null, { status: 404 });
      }
      if (request.method === "POST" && url.pathname === "/delete") {
        await env.${UPLOADER_BINDING}.delete(await request.json());
        return new Response("ok");
      }
      if (request.method === "POST" && url.pathname === "/put") {
        const bytes = new Uint8Array(await request.arrayBuffer());
        const headerLength = new DataView(bytes.buffer).getUint32(0);
        const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength)));
        let offset = 4 + headerLength;
        const puts = header.map((o) => {
          const body = bytes.subarray(offset, offset + o.n);
          offset += o.n;
          return () => env.${UPLOADER_BINDING}.put(o.k, body, o.e === undefined ? {} : { customMetadata: { [META]: o.e } });
        });
        if (offset !== bytes.byteLength) return new Response("batch length mismatch", { status: 400 });
        let next = 0;
        const lane = async () => { for (let i = next++; i < puts.length; i = next++) await puts[i](); };
        await Promise.all(Array.from({ length: Math.min(PARALLEL, puts.length) }, lane));
        return new Response(String(puts.length));
      }
      return new Response("not found", { status: 404 });
    } catch (e) {
      return new Response(String(e && e.message || e).split("\\n")[0], { status: 500 });
    }
  },
};
`;

/** One request body for a batch of objects. */
export function encodeBatch(objects: UploadObject[]): Uint8Array {
  const header = new TextEncoder().encode(
    JSON.stringify(
      objects.map((o) =>
        o.etag === undefined ? { k: o.key, n: o.body.byteLength } : { k: o.key, n: o.body.byteLength, e: o.etag },
      ),
    ),
  );
  const total = 4 + header.byteLength + objects.reduce((sum, o) => sum + o.body.byteLength, 0);
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, header.byteLength);
  out.set(header, 4);
  let offset = 4 + header.byteLength;
  for (const o of objects) {
    out.set(o.body, offset);
    offset += o.body.byteLength;
  }
  return out;
}

interface FetcherLike {
  fetch(
    url: string,
    init?: { method?: string; body?: Uint8Array | string },
  ): Promise<{ status: number; text(): Promise<string> }>;
}

/** The uploader Worker (started by startLocalWorker with `uploader: true`) as an upload target. */
export function localUploadTarget(uploader: FetcherLike): UploadTarget {
  const call = async (what: string, path: string, body?: Uint8Array | string) => {
    const res = await uploader.fetch(
      `http://uploader${path}`,
      body === undefined ? undefined : { method: "POST", body },
    );
    const text = await res.text();
    if (res.status !== 200 && !(res.status === 404 && path.startsWith("/get")))
      throw new Error(`local R2 ${what}: ${res.status} ${text}`);
    return res.status === 404 ? null : text;
  };
  return {
    // Up to 8 MB per request, two requests in flight (workerd and Node share the machine's cores).
    batch: { objects: 500, bytes: 8_000_000, concurrency: 2 },
    readText: (key) => call(`get ${key}`, `/get?key=${encodeURIComponent(key)}`),
    put: async (objects) => {
      await call(`put of ${objects.length} objects`, "/put", encodeBatch(objects));
    },
    delete: async (keys) => {
      await call(`delete of ${keys.length} keys`, "/delete", JSON.stringify(keys));
    },
  };
}
