// H1–H4 on every kind of response (200, 304, 400, 404, 405, 204). H5 is in derived.test.ts; H6 is the build's.
import { expect } from "vitest";
import { categoryWith } from "../helpers/conformance/catalog.ts";
import { suiteContext } from "../helpers/conformance/context.ts";
import { expectCommonHeaders, expectError, expectOk } from "../helpers/conformance/expect-response.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import type { Client, Reply } from "../helpers/conformance/http.ts";
import { ERROR_CODES } from "../helpers/conformance/shapes.ts";

const { catalog } = suiteContext();
const base = catalog.basePath;
const tool = catalog.tools[0]!;
const other = catalog.tools[1]!;
const listed = categoryWith(catalog, "listed");

const ok = [
  `${base}/software`,
  `${base}/software?limit=3&category=${listed.slug}`,
  `${base}/software/${tool.slug}`,
  `${base}/categories`,
  `${base}/best/${listed.slug}`,
];
/** one request per error code, with its status */
const errors: [string, 400 | 404, string][] = [
  [`${base}/software?limit=0`, 400, "invalid_limit"],
  [`${base}/software?offset=-1`, 400, "invalid_offset"],
  [`${base}/software?offset=${catalog.tools.length + 1}`, 400, "offset_out_of_range"],
  [`${base}/software?category=a&category=b`, 400, "category_not_found"],
  [`${base}/software?category=nope`, 404, "category_not_found"],
  [`${base}/best/nope`, 404, "category_not_found"],
  [`${base}/software/nope`, 404, "software_not_found"],
  [`${base}/nope`, 404, "not_found"],
  [`${base}/search?q=Mail`, 400, "invalid_query"],
];

const etagOf = async (client: Client, target: string) => {
  const etag = (await client.get(target)).headers.get("etag");
  if (!etag) throw new Error(`${target}: no ETag`);
  return etag;
};

/** 304: no body, the headers of H1–H3, the same ETag */
function expectNotModified(reply: Reply, etag: string) {
  expect(reply.status, `${reply.target}: 304`).toBe(304);
  expect(reply.text).toBe("");
  expectCommonHeaders(reply);
  expect(reply.headers.get("etag")).toBe(etag);
  expect(reply.headers.get("cache-control") ?? "(absent)").toMatch(/\bpublic\b/);
}

const opaque = (etag: string) => etag.replace(/^W\//, "");

forEachHost(({ test, client }) => {
  test("H1 H2 200 responses: JSON content type with charset, CORS *, nosniff", async () => {
    for (const target of ok) {
      const reply = await client().get(target);
      expectOk(reply);
      expect(() => reply.json()).not.toThrow();
    }
  });

  test("H1 H2 H4 400 and 404 responses: JSON error bodies with the headers", async () => {
    for (const [target, status, code] of errors) expectError(await client().get(target), status, code);
  });

  test("H1 H2 H4 405 responses: JSON error body with the headers", async () => {
    expectError(await client().request(`${base}/software`, { method: "POST" }), 405, "method_not_allowed");
  });

  test("H1 H2 204 responses: the headers, no body", async () => {
    const reply = await client().request(`${base}/software`, { method: "OPTIONS" });
    expect(reply.status).toBe(204);
    expect(reply.text).toBe("");
    expectCommonHeaders(reply);
  });

  test("H1 H2 304 responses: the headers, no body", async () => {
    const target = `${base}/categories`;
    const etag = await etagOf(client(), target);
    expectNotModified(await client().get(target, { "If-None-Match": etag }), etag);
  });

  test("H3 200 carries Cache-Control public with the max-age (and stale-while-revalidate) of content/site.json, and an ETag", async () => {
    const stale =
      catalog.cacheStaleWhileRevalidate > 0 ? `, stale-while-revalidate=${catalog.cacheStaleWhileRevalidate}` : "";
    for (const target of ok) {
      const reply = await client().get(target);
      expect(reply.headers.get("cache-control") ?? "(absent)", target).toBe(
        `public, max-age=${catalog.cacheMaxAge}${stale}`,
      );
      expect(reply.headers.get("etag") ?? "(absent)", target).toMatch(/^(W\/)?"[^"]+"$/);
    }
  });

  test("H3 a resource keeps its ETag; different bodies have different ETags", async () => {
    const etags = await Promise.all(ok.map((t) => etagOf(client(), t)));
    expect(await Promise.all(ok.map((t) => etagOf(client(), t)))).toEqual(etags);
    expect(new Set(etags).size).toBe(etags.length);
  });

  test("H3 If-None-Match with the exact ETag → 304", async () => {
    for (const target of ok) {
      const etag = await etagOf(client(), target);
      expectNotModified(await client().get(target, { "If-None-Match": etag }), etag);
    }
  });

  test("H3 If-None-Match compares weakly: W/ form and plain form → 304", async () => {
    const target = `${base}/software/${tool.slug}`;
    const etag = await etagOf(client(), target);
    for (const form of [`W/${opaque(etag)}`, opaque(etag)])
      expectNotModified(await client().get(target, { "If-None-Match": form }), etag);
  });

  test("H3 If-None-Match list holding the ETag → 304", async () => {
    const target = `${base}/software/${tool.slug}`;
    const etag = await etagOf(client(), target);
    const stranger = await etagOf(client(), `${base}/software/${other.slug}`);
    for (const list of [`${stranger}, ${etag}`, `"x",${etag}`, `${etag} , "y"`, `W/"a", W/${opaque(etag)}`]) {
      expectNotModified(await client().get(target, { "If-None-Match": list }), etag);
    }
  });

  test("H3 If-None-Match: * → 304", async () => {
    const target = `${base}/best/${listed.slug}`;
    expectNotModified(await client().get(target, { "If-None-Match": "*" }), await etagOf(client(), target));
  });

  test("H3 non-matching If-None-Match → 200", async () => {
    const target = `${base}/software/${tool.slug}`;
    const etag = await etagOf(client(), target);
    const stranger = await etagOf(client(), `${base}/software/${other.slug}`);
    for (const value of [stranger, `"${opaque(etag).slice(1, -1)}x"`, `"nope", W/"nope"`, opaque(etag).slice(1, -1)]) {
      const reply = await client().get(target, { "If-None-Match": value });
      expect(reply.status, `If-None-Match: ${value}`).toBe(200);
      expect(reply.headers.get("etag")).toBe(etag);
    }
  });

  test("H3 HEAD with a matching If-None-Match → 304", async () => {
    const target = `${base}/software?limit=5`;
    const etag = await etagOf(client(), target);
    expectNotModified(await client().request(target, { method: "HEAD", headers: { "If-None-Match": etag } }), etag);
  });

  test("H3 If-None-Match leaves errors alone: no current representation, no 304", async () => {
    for (const [target, status, code] of errors.slice(0, 3))
      expectError(await client().get(target, { "If-None-Match": "*" }), status, code);
    expectError(await client().get(`${base}/nope`, { "If-None-Match": "*" }), 404, "not_found");
  });

  test("H4 every error code answers { error: { code, message, hint? } }", async () => {
    const seen = new Set<string>();
    for (const [target, status, code] of errors)
      seen.add(expectError(await client().get(target), status, code).error.code);
    seen.add(
      expectError(await client().request(`${base}/software`, { method: "DELETE" }), 405, "method_not_allowed").error
        .code,
    );
    expect([...seen].sort(), "every H4 code is reachable").toEqual([...ERROR_CODES].sort());
  });
});
