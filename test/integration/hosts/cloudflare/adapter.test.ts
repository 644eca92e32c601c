// The Cloudflare adapter's files, and the Worker module run in Node against a build of the tiny fixture through
// fake bindings (no workerd here: the conformance suite runs the real one). What matters below: the bundle is
// self-contained and byte-identical per table, only what the resolver can answer with is published, and the
// Worker's ETag is the Node server's for the same bytes from Static Assets (hashed), and from R2 builds the one the
// manifest gives (derived from the body's SHA-256); R2 bodies go out as stored (gzip) or decoded, byte for byte.

import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import { errorBodies } from "../../../../scripts/api/contract/error-bodies.ts";
import { etagOf } from "../../../../scripts/api/etag-node.ts";
import { etagFromSha256Hex } from "../../../../scripts/api/runtime/etag.ts";
import type { RouteTable } from "../../../../scripts/api/runtime/route-table.ts";
import { sha256Hex } from "../../../../scripts/api/sha256-node.ts";
import {
  assetsIgnore,
  bundleWorker,
  cloudflareAdapter,
  publishedPathFilter,
  WORKER_FILE,
  WRANGLER_ASSETS_CONFIG,
  WRANGLER_R2_CONFIG,
} from "../../../../scripts/hosts/cloudflare/adapter.ts";
import { describePlan, planFor } from "../../../../scripts/hosts/cloudflare/plan.ts";
import { uploadToR2 } from "../../../../scripts/hosts/cloudflare/r2/upload.ts";
import type { Env } from "../../../../scripts/hosts/cloudflare/worker/stores.ts";
import { createWorker } from "../../../../scripts/hosts/cloudflare/worker/worker.ts";
import { FIND_INDEX_FILE } from "../../../../scripts/model/find-index.ts";
import { builtSite } from "../../../helpers/build/built-site.ts";
import { memoryBucket } from "../../../helpers/r2/memory-bucket.ts";

const site = builtSite({ prefix: "cloudflare-adapter-" });
let table: RouteTable;
let bucket: ReturnType<typeof memoryBucket>;
let buildId: string;

beforeAll(async () => {
  table = JSON.parse(readFileSync(join(site.dist, "routes.json"), "utf8")) as RouteTable;
  bucket = memoryBucket();
  buildId = (await uploadToR2(site.dist, bucket.target)).build;
});

const jsonc = (text: string) => JSON.parse(text.replace(/^\/\/.*\n/, ""));

/** Static Assets from dist/ as the binding answers: 200 with the bytes, 404 when missing. */
const assetsEnv = (reads: string[] = []): Env => ({
  ASSETS: {
    async fetch(input) {
      const file = decodeURIComponent(new URL(input).pathname.slice(1));
      reads.push(file);
      try {
        return new Response(await readFile(join(site.dist, file)));
      } catch {
        return new Response("not found", { status: 404 });
      }
    },
  },
});

/** The tiny build published in an R2 bucket, as upload:r2 publishes it. */
const r2Env = (): Env => ({ BUCKET: bucket.binding, COUNT_R2_READS: "1" });

describe("cloudflare adapter files", () => {
  it("the Worker bundle is one self-contained module, without Ajv, byte-identical for the same table", () => {
    const a = bundleWorker(table);
    expect(a).toBe(bundleWorker(table));
    expect(a).not.toMatch(/^\s*import\s/m);
    expect(a).toContain("export {");
    expect(readFileSync(join(site.dist, WORKER_FILE), "utf8")).toBe(a);
    // Ajv's code is replaced by worker/no-ajv.ts (its compiled validators cannot run in workerd).
    expect(a).toContain("Ajv is not in the Worker bundle");
    expect(a).not.toContain("ajv/dist");
    // The table, the error bodies and the code (the MCP server's included), never the catalog: within the 1 MB of
    // a Worker on the Free plan, gzip-compressed, with room to spare.
    expect(a).not.toContain("alpha-mail");
    expect(gzipSync(a).byteLength).toBeLessThan(256 * 1024);
  });

  it("wrangler configs: the Worker runs first over the assets; the R2 variant binds a bucket", () => {
    const files = Object.fromEntries(cloudflareAdapter(table).map((f) => [f.path, String(f.body)]));
    const assets = jsonc(files[WRANGLER_ASSETS_CONFIG]!);
    expect(assets.main).toBe(WORKER_FILE);
    expect(assets.assets).toMatchObject({
      directory: ".",
      binding: "ASSETS",
      run_worker_first: true,
      html_handling: "none",
      not_found_handling: "none",
    });
    const r2 = jsonc(files[WRANGLER_R2_CONFIG]!);
    expect(r2.assets).toBeUndefined();
    expect(r2.r2_buckets).toEqual([expect.objectContaining({ binding: "BUCKET" })]);
  });

  it("only what the resolver can answer with is published: no config, manifest, route table, dotfile or sibling", async () => {
    const all = await fg("**", { cwd: site.dist, dot: true });
    const isPublished = publishedPathFilter(table);
    const published = all.filter((f) => isPublished(f));
    const hidden = all.filter((f) => !isPublished(f));
    for (const f of [
      "routes.json",
      ".build-manifest.json",
      WORKER_FILE,
      WRANGLER_ASSETS_CONFIG,
      ".assetsignore",
      "_redirects",
      "_headers",
      "serve.json",
    ]) {
      expect(hidden, f).toContain(f);
    }
    expect(hidden.filter((f) => f.startsWith("nginx/")).length).toBeGreaterThan(0);
    // One build record goes too: the MCP tools read the find index from the build (no route answers with it).
    expect(published).toContain(FIND_INDEX_FILE);
    for (const a of table.assets) expect(published, a.file).toContain(a.file);
    for (const e of Object.values(table.errors)) expect(published, e.file).toContain(e.file);
    expect(
      published.every(
        (f) =>
          f.startsWith(`${table.basePath.slice(1)}/`) ||
          f.startsWith("errors/") ||
          f === FIND_INDEX_FILE ||
          table.assets.some((a) => a.file === f),
      ),
    ).toBe(true);
    expect(isPublished("v1/software/.env")).toBe(false);
    expect(isPublished("v1/openapi.json.br")).toBe(false);
    // .assetsignore says the same in gitignore syntax: everything, then the published roots back in.
    expect(assetsIgnore(table).split("\n")).toEqual(
      expect.arrayContaining([
        "/*",
        "!/v1/",
        "!/errors/",
        "!/index.html",
        "!/docs/",
        "!/llms.txt",
        `!/${FIND_INDEX_FILE}`,
        ".*",
        "*.br",
        "*.gz",
      ]),
    );
  });

  it("the plan follows the published file count and the per-file limit", () => {
    expect(planFor({ files: 20_000, bytes: 1, largest: 1 })).toBe("assets-free");
    expect(planFor({ files: 20_001, bytes: 1, largest: 1 })).toBe("assets-paid");
    expect(planFor({ files: 100_001, bytes: 1, largest: 1 })).toBe("r2");
    expect(planFor({ files: 10, bytes: 1, largest: 25 * 1024 * 1024 + 1 })).toBe("r2");
    expect(describePlan({ files: 22_317, bytes: 128e6, largest: 1e6 })).toMatch(/Paid plan/);
  });
});

describe("the Worker module over fake bindings", () => {
  const worker = () => createWorker(table, errorBodies(table.basePath));
  const get = (env: Env, path: string, init: RequestInit = {}) =>
    worker().fetch(new Request(`https://api.example${path}`, init), env);
  // a list page, a tool, the categories, the docs page (an asset with its own type)
  const targets = () => ["/v1/categories", "/v1/software?limit=2", "/v1/software/alpha-mail", "/"];

  for (const [name, env] of [
    ["Static Assets", () => assetsEnv()],
    ["R2 builds", () => r2Env()],
  ] as const) {
    it(`${name}: 200 with the file's bytes and its ETag; 304 for its forms`, async () => {
      for (const target of targets()) {
        const r = await createResolverFile(target);
        const res = await get(env(), target);
        const body = Buffer.from(await res.arrayBuffer());
        expect(res.status, target).toBe(200);
        expect(res.headers.get("content-encoding"), target).toBeNull();
        expect(body.equals(readFileSync(join(site.dist, r))), target).toBe(true);
        // The Node server's ETag on both: R2 derives it from the SHA-256 the build records, Static Assets from the body
        const etag = etagOf(body);
        expect(etag, target).toBe(etagFromSha256Hex(sha256Hex(body)));
        expect(res.headers.get("etag"), target).toBe(etag);
        expect(res.headers.get("content-length"), target).toBe(String(body.byteLength));
        for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
          const again = await get(env(), target, { headers: { "If-None-Match": inm } });
          expect(again.status, `${target} If-None-Match: ${inm}`).toBe(304);
          expect(again.headers.get("content-type"), target).toBeNull();
        }
        expect((await get(env(), target, { headers: { "If-None-Match": '"nope"' } })).status).toBe(200);
      }
    });
  }

  // A list page is no stored body: the Worker writes it around its items' range and leaves compression to the edge.
  const storedTargets = () => targets().filter((t) => !t.startsWith("/v1/software?"));

  it("R2: a list page is written around one ranged read of its list's run: the file's bytes and ETag to every client", async () => {
    const target = "/v1/software?limit=2&offset=1";
    const file = readFileSync(join(site.dist, await createResolverFile(target)));
    for (const client of [{}, { "Accept-Encoding": "gzip, br" }] as Record<string, string>[]) {
      const res = await get(r2Env(), target, { headers: client });
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(Buffer.from(await res.arrayBuffer()).equals(file)).toBe(true);
      expect(res.headers.get("etag")).toBe(etagOf(file));
      expect(res.headers.get("content-length")).toBe(String(file.byteLength));
      // no edge cache in Node: each request is one ranged read of the run, and no other body
      expect(res.headers.get("x-r2-read-kinds")).toMatch(/ body=1$/);
    }
    // past the list's end (its length is in the manifest): the offset_out_of_range body the build wrote for the list
    const beyond = await get(r2Env(), "/v1/software?offset=99");
    expect(beyond.status).toBe(400);
    expect(await beyond.text()).toBe(readFileSync(join(site.dist, "errors/offset_out_of_range/all.json"), "utf8"));
  });

  it("R2: a client accepting gzip gets the body as stored, its own ETag, Vary, 304 and HEAD; decoded it is the file", async () => {
    for (const target of storedTargets()) {
      const file = readFileSync(join(site.dist, await createResolverFile(target)));
      const plain = await get(r2Env(), target);
      const res = await get(r2Env(), target, { headers: { "Accept-Encoding": "gzip, br" } });
      const stored = Buffer.from(await res.arrayBuffer());
      expect(res.status, target).toBe(200);
      expect(res.headers.get("content-encoding"), target).toBe("gzip");
      expect(res.headers.get("vary"), target).toBe("Accept-Encoding");
      expect(plain.headers.get("vary"), target).toBe("Accept-Encoding");
      // no Content-Length on the coded answer, as the edge's own compression sends none
      expect(res.headers.get("content-length"), target).toBeNull();
      expect(gunzipSync(stored).equals(file), target).toBe(true);
      const etag = res.headers.get("etag")!;
      expect(etag, target).toBe(`${plain.headers.get("etag")!.slice(0, -1)}-gzip"`);
      const again = await get(r2Env(), target, { headers: { "Accept-Encoding": "gzip", "If-None-Match": etag } });
      expect(again.status, target).toBe(304);
      const head = await get(r2Env(), target, { method: "HEAD", headers: { "Accept-Encoding": "gzip" } });
      expect([...head.headers].filter(([k]) => k !== "x-r2-reads" && k !== "x-r2-read-kinds")).toEqual(
        [...res.headers].filter(([k]) => k !== "x-r2-reads" && k !== "x-r2-read-kinds"),
      );
      expect(await head.text()).toBe("");
      // refused with q=0: decoded
      const refused = await get(r2Env(), target, { headers: { "Accept-Encoding": "gzip;q=0" } });
      expect(refused.headers.get("content-encoding"), target).toBeNull();
      expect(Buffer.from(await refused.arrayBuffer()).equals(file), target).toBe(true);
    }
  });

  it("R2: the client's own Accept-Encoding decides (request.cf.clientAcceptEncoding), not the `br, gzip` the edge sends", async () => {
    const asTheEdgeSends = (path: string, client: string) => {
      const request = new Request(`https://api.example${path}`, { headers: { "Accept-Encoding": "br, gzip" } });
      return worker().fetch(Object.assign(request, { cf: { clientAcceptEncoding: client } }), r2Env());
    };
    for (const target of storedTargets()) {
      const file = readFileSync(join(site.dist, await createResolverFile(target)));
      for (const client of ["", "identity", "gzip;q=0", "br"]) {
        const res = await asTheEdgeSends(target, client);
        expect(res.headers.get("content-encoding"), `${target} (${client})`).toBeNull();
        expect(Buffer.from(await res.arrayBuffer()).equals(file), `${target} (${client})`).toBe(true);
      }
      const gzip = await asTheEdgeSends(target, "gzip, deflate");
      expect(gzip.headers.get("content-encoding"), target).toBe("gzip");
      expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).equals(file), target).toBe(true);
    }
  });

  it("R2: every answer from a build names it; existence comes from the manifest (a 4 KiB slug reads no body); no live build is a 503", async () => {
    const w = worker();
    const first = await w.fetch(new Request("https://api.example/v1/categories"), r2Env());
    expect(first.headers.get("x-catalog-build")).toBe(buildId);
    const longUrl = `https://api.example/v1/software/${"a".repeat(4096)}`;
    await w.fetch(new Request(longUrl), r2Env());
    const long = await w.fetch(new Request(longUrl), r2Env());
    expect(long.status).toBe(404);
    expect(((await long.json()) as { error: { code: string } }).error.code).toBe("software_not_found");
    expect(long.headers.get("x-catalog-build")).toBe(buildId);
    // the pointer is remembered for a second and a manifest shard for good: the second time, nothing is read
    expect(long.headers.get("x-r2-reads")).toBe("0");
    const empty = memoryBucket();
    const none = await worker().fetch(new Request("https://api.example/v1/categories"), { BUCKET: empty.binding });
    expect(none.status).toBe(503);
    expect(none.headers.get("retry-after")).toBe("1");
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("service_unavailable");
    // an error the route decides needs no build: its own answer even with none live, reading nothing, naming none
    const bad = await worker().fetch(new Request("https://api.example/v1/software?limit=0"), {
      BUCKET: empty.binding,
      COUNT_R2_READS: "1",
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-r2-reads")).toBe("0");
    expect(bad.headers.get("x-catalog-build")).toBeNull();
  });

  it("errors come from the bundle, without a storage read; 405 has Allow; OPTIONS echoes the request headers", async () => {
    const reads: string[] = [];
    const nope = await get(assetsEnv(reads), "/routes.json");
    expect(nope.status).toBe(404);
    expect(await nope.text()).toBe(readFileSync(join(site.dist, table.errors.not_found.file), "utf8"));
    const post = await get(assetsEnv(reads), "/v1/software", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const options = await get(assetsEnv(reads), "/v1/software", {
      method: "OPTIONS",
      headers: { "Access-Control-Request-Headers": "x-api-key" },
    });
    expect(options.status).toBe(204);
    expect(options.headers.get("access-control-allow-headers")).toBe("x-api-key");
    expect(reads).toEqual([]);
  });

  it("HEAD: the GET headers, no body; the second HEAD of a Static Assets file reads nothing", async () => {
    const reads: string[] = [];
    const env = assetsEnv(reads);
    const w = worker();
    const getRes = await w.fetch(new Request("https://api.example/v1/categories"), env);
    const before = reads.length;
    const head = await w.fetch(new Request("https://api.example/v1/categories", { method: "HEAD" }), env);
    expect(reads.length).toBe(before);
    expect([...head.headers]).toEqual([...getRes.headers]);
    expect(await head.text()).toBe("");
    // A second GET reads the body once more, and answers the same ETag.
    const again = await w.fetch(new Request("https://api.example/v1/categories"), env);
    expect(reads.length).toBe(before + 1);
    expect(again.headers.get("etag")).toBe(getRes.headers.get("etag"));
  });

  /** The file the resolver picks for a target (errors excluded). */
  async function createResolverFile(target: string): Promise<string> {
    const { createResolver } = await import("../../../../scripts/api/runtime/resolve-request.ts");
    const r = await createResolver(table).resolve(
      "GET",
      target,
      async (f) =>
        await readFile(join(site.dist, f)).then(
          () => true,
          () => null,
        ),
    );
    if (r.kind !== "file") throw new Error(`${target} resolves to ${r.kind}`);
    return r.file;
  }
});
