// Precompressed bodies (build --compress): every coding a host sends decodes to exactly the identity body,
// with Vary: Accept-Encoding and its own ETag. Built here from the tiny fixture, so the rest of the suite
// keeps testing the plain tree.
import { request } from "node:http";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../scripts/build.ts";
import { hosts, type RunningHost, selectedHosts } from "../helpers/conformance/hosts.ts";
import { buildRunsTwin } from "../helpers/conformance/runs-twin.ts";
import { fixture, tempDir } from "../helpers/fs/dirs.ts";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, not fetch: fetch decodes bodies, and the raw bytes are what is under test. */
function get(origin: string, path: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(origin + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const decode = (r: RawResponse) =>
  r.headers["content-encoding"] === "br"
    ? brotliDecompressSync(r.body)
    : r.headers["content-encoding"] === "gzip"
      ? gunzipSync(r.body)
      : r.body;

// Bodies of 1 KB and more: smaller ones are not worth compressing and have no precompressed file.
const PATHS = ["/v1/software?limit=100", "/v1/software?limit=4&offset=0", "/v1/openapi.json"];

const selected = selectedHosts();

describe.each(hosts.filter((h) => h.encodings && (!selected || selected.includes(h.name))))(
  "host $name, precompressed build",
  (host) => {
    let dir: Awaited<ReturnType<typeof tempDir>>;
    let running: RunningHost | undefined;
    const unavailable = host.unavailable();
    beforeAll(async () => {
      if (unavailable) return;
      dir = await tempDir();
      await build({ contentDir: fixture("tiny"), outDir: join(dir.path, "dist"), compress: true });
      await buildRunsTwin([host], fixture("tiny"), join(dir.path, "dist"), { compress: true });
      running = await host.start(join(dir.path, "dist"));
    });
    afterAll(async () => {
      await running?.stop();
      await dir?.remove();
    });

    for (const coding of host.encodings ?? []) {
      it.skipIf(unavailable !== undefined)(
        `H1 Accept-Encoding: ${coding} → ${coding}, decoding to the identity body`,
        async () => {
          for (const path of PATHS) {
            const plain = await get(running!.origin, path, {});
            const encoded = await get(running!.origin, path, { "Accept-Encoding": coding });
            expect(plain.body.byteLength, path).toBeGreaterThanOrEqual(1024);
            expect(plain.headers["content-encoding"], path).toBeUndefined();
            expect(encoded.status, path).toBe(200);
            expect(encoded.headers["content-encoding"], path).toBe(coding);
            expect(String(encoded.headers.vary).toLowerCase(), path).toContain("accept-encoding");
            expect(encoded.body.byteLength, path).toBeLessThan(plain.body.byteLength);
            expect(decode(encoded).equals(plain.body), path).toBe(true);
            expect(encoded.headers["content-type"], path).toBe(plain.headers["content-type"]);
          }
        },
      );
    }

    it.skipIf(unavailable !== undefined)(
      "H1 a coding refused with q=0 is never sent; an unknown coding gets the identity body",
      async () => {
        const identity = await get(running!.origin, PATHS[0]!, { "Accept-Encoding": "br;q=0, gzip;q=0" });
        expect(identity.headers["content-encoding"]).toBeUndefined();
        const unknown = await get(running!.origin, PATHS[0]!, { "Accept-Encoding": "compress" });
        expect(unknown.headers["content-encoding"]).toBeUndefined();
        expect(decode(unknown).equals(identity.body)).toBe(true);
      },
    );

    it.skipIf(unavailable !== undefined)(
      "H3 each coding has its own ETag, and If-None-Match with it → 304",
      async () => {
        const coding = host.encodings![0]!;
        const plain = await get(running!.origin, PATHS[0]!, {});
        const encoded = await get(running!.origin, PATHS[0]!, { "Accept-Encoding": coding });
        expect(encoded.headers.etag).toBeDefined();
        expect(encoded.headers.etag).not.toBe(plain.headers.etag);
        const again = await get(running!.origin, PATHS[0]!, {
          "Accept-Encoding": coding,
          "If-None-Match": String(encoded.headers.etag),
        });
        expect(again.status).toBe(304);
        expect(again.body.byteLength).toBe(0);
      },
    );

    it.skipIf(unavailable !== undefined)("error bodies stay plain JSON under any Accept-Encoding", async () => {
      const r = await get(running!.origin, "/v1/software?limit=0", { "Accept-Encoding": "br, gzip" });
      expect(r.status).toBe(400);
      expect(JSON.parse(decode(r).toString("utf8")).error.code).toBe("invalid_limit");
    });
  },
);
