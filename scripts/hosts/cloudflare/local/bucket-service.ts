// The local R2 upload path: a second Worker in the same Miniflare, bound to the same bucket, that takes a batch of
// objects in one request and puts them inside workerd. Each put from Node through Miniflare's bridge is one round
// trip (~113 objects/s); one request per batch is not. It also reads (with the object's R2 ETag, or a range), lists,
// deletes, sends a pack as a multipart upload, and makes the conditional put that switches the live build.
// Batch body: a 4-byte big-endian header length, the header (JSON: [{ k: key, n: bytes }]), then the objects' bytes
// one after the other.

import type { UploadObject, UploadTarget } from "../r2/target.ts";

export const UPLOADER_NAME = "r2-uploader";
export const UPLOADER_BINDING = "BUCKET";

/** Runs in workerd: Web APIs only. Puts run concurrently, bounded so one batch never opens thousands at once. */
export const UPLOADER_SOURCE = `
const PARALLEL = 64;
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const bucket = env.${UPLOADER_BINDING};
    try {
      if (request.method === "GET" && url.pathname === "/get") {
        const q = url.searchParams;
        const range = q.has("suffix") ? { suffix: Number(q.get("suffix")) }
          : q.has("offset") ? { offset: Number(q.get("offset")), length: Number(q.get("length")) } : undefined;
        const object = await bucket.get(q.get("key"), range ? { range } : undefined);
        return object ? new Response(object.body, { headers: { "x-r2-etag": object.etag } }) : new Response(null, { status: 404 });
      }
      if (request.method === "POST" && url.pathname === "/mpu-create") {
        const upload = await bucket.createMultipartUpload(url.searchParams.get("key"));
        return new Response(upload.uploadId);
      }
      if (request.method === "POST" && url.pathname === "/mpu-part") {
        const q = url.searchParams;
        const upload = bucket.resumeMultipartUpload(q.get("key"), q.get("id"));
        const part = await upload.uploadPart(Number(q.get("n")), new Uint8Array(await request.arrayBuffer()));
        return Response.json(part);
      }
      if (request.method === "POST" && url.pathname === "/mpu-complete") {
        const q = url.searchParams;
        await bucket.resumeMultipartUpload(q.get("key"), q.get("id")).complete(await request.json());
        return new Response("ok");
      }
      if (request.method === "GET" && url.pathname === "/list") {
        const listed = await bucket.list({ prefix: url.searchParams.get("prefix") ?? "", cursor: url.searchParams.get("cursor") || undefined, limit: 1000 });
        return Response.json({
          objects: listed.objects.map((o) => ({ key: o.key, uploaded: o.uploaded.getTime(), size: o.size })),
          cursor: listed.truncated ? listed.cursor : null,
        });
      }
      if (request.method === "POST" && url.pathname === "/delete") {
        await bucket.delete(await request.json());
        return new Response("ok");
      }
      if (request.method === "POST" && url.pathname === "/put-if") {
        const { key, text, etag } = await request.json();
        // R2's conditional put: null when the condition fails. No object yet: only when there still is none.
        const onlyIf = etag === null ? new Headers({ "if-none-match": "*" }) : { etagMatches: etag };
        const put = await bucket.put(key, text, { onlyIf });
        return new Response(put ? "put" : "refused");
      }
      if (request.method === "POST" && url.pathname === "/put") {
        const bytes = new Uint8Array(await request.arrayBuffer());
        const headerLength = new DataView(bytes.buffer).getUint32(0);
        const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength)));
        let offset = 4 + headerLength;
        const puts = header.map((o) => {
          const body = bytes.subarray(offset, offset + o.n);
          offset += o.n;
          return () => bucket.put(o.k, body);
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
  const header = new TextEncoder().encode(JSON.stringify(objects.map((o) => ({ k: o.key, n: o.body.byteLength }))));
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
  ): Promise<{
    status: number;
    headers: { get(name: string): string | null };
    text(): Promise<string>;
    arrayBuffer(): Promise<ArrayBuffer>;
  }>;
}

/** The uploader Worker (started by startLocalWorker with `uploader: true`) as an upload target. */
export function localUploadTarget(uploader: FetcherLike): UploadTarget {
  const call = async (what: string, path: string, body?: Uint8Array | string) => {
    const res = await uploader.fetch(
      `http://uploader${path}`,
      body === undefined ? undefined : { method: "POST", body },
    );
    const text = await res.text();
    if (res.status === 404 && path.startsWith("/get")) return null;
    if (res.status !== 200) throw new Error(`local R2 ${what}: ${res.status} ${text}`);
    return { text, etag: res.headers.get("x-r2-etag") ?? "" };
  };
  const bytes = async (what: string, path: string): Promise<Uint8Array | null> => {
    const res = await uploader.fetch(`http://uploader${path}`);
    if (res.status === 404) {
      await res.text();
      return null;
    }
    if (res.status !== 200 && res.status !== 206)
      throw new Error(`local R2 ${what}: ${res.status} ${await res.text()}`);
    return new Uint8Array(await res.arrayBuffer());
  };
  const PART_BYTES = 8 * 1024 * 1024;
  return {
    // Up to 8 MB per request, two requests in flight (workerd and Node share the machine's cores).
    batch: { objects: 500, bytes: 8_000_000, concurrency: 2 },
    packBytes: 64 * 1024 * 1024,
    partBytes: PART_BYTES,
    read: (key) => call(`get ${key}`, `/get?key=${encodeURIComponent(key)}`),
    readBytes: (key, range) =>
      bytes(
        `get ${key}`,
        `/get?key=${encodeURIComponent(key)}${
          range === undefined
            ? ""
            : "suffix" in range
              ? `&suffix=${range.suffix}`
              : `&offset=${range.offset}&length=${range.length}`
        }`,
      ),
    putParts: async (key, body) => {
      const k = encodeURIComponent(key);
      const id = (await call(`multipart upload of ${key}`, `/mpu-create?key=${k}`, ""))!.text;
      const parts: unknown[] = [];
      for (let n = 1, at = 0; at < body.byteLength; n++, at += PART_BYTES) {
        const path = `/mpu-part?key=${k}&id=${encodeURIComponent(id)}&n=${n}`;
        parts.push(JSON.parse((await call(`part ${n} of ${key}`, path, body.subarray(at, at + PART_BYTES)))!.text));
      }
      await call(
        `multipart completion of ${key}`,
        `/mpu-complete?key=${k}&id=${encodeURIComponent(id)}`,
        JSON.stringify(parts),
      );
    },
    put: async (objects) => {
      await call(`put of ${objects.length} objects`, "/put", encodeBatch(objects));
    },
    putIf: async (key, text, etag) =>
      (await call(`conditional put of ${key}`, "/put-if", JSON.stringify({ key, text, etag })))!.text === "put",
    list: async (prefix) => {
      const all: { key: string; uploaded: number; size: number }[] = [];
      let cursor = "";
      for (;;) {
        const page = await call(
          `list of ${prefix}`,
          `/list?prefix=${encodeURIComponent(prefix)}&cursor=${encodeURIComponent(cursor)}`,
        );
        const { objects, cursor: next } = JSON.parse(page!.text) as { objects: typeof all; cursor: string | null };
        all.push(...objects);
        if (!next) return all;
        cursor = next;
      }
    },
    delete: async (keys) => {
      await call(`delete of ${keys.length} keys`, "/delete", JSON.stringify(keys));
    },
  };
}
