// H1 as the bytes arrive, on every host and over the build the suite serves (plain, or stored gzip-compressed on R2):
// a client that sends no Accept-Encoding, or refuses gzip, gets the identity body; one that accepts gzip gets gzip or
// the identity body, decoding to the same bytes. Raw sockets, not fetch: fetch asks for gzip and decodes it, which
// hid a Worker that sent gzip to clients that never asked for it.
import { gunzipSync } from "node:zlib";
import { expect } from "vitest";
import { categoryWith } from "../helpers/conformance/catalog.ts";
import { suiteContext } from "../helpers/conformance/context.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import { type RawReply, rawRequest } from "../helpers/conformance/raw-http.ts";

const { catalog } = suiteContext();
const base = catalog.basePath;
const listed = categoryWith(catalog, "listed");

const TARGETS = [
  `${base}/software`,
  `${base}/software?limit=7&offset=1`,
  `${base}/software?category=${listed.slug}&limit=2`,
  `${base}/software/${catalog.tools[0]!.slug}`,
  `${base}/categories`,
  `${base}/best/${listed.slug}`,
  `${base}/openapi.json`,
  `${base}/software?limit=0`,
  `${base}/software/nope`,
];

const decoded = (reply: RawReply) =>
  reply.headers["content-encoding"] === "gzip" ? gunzipSync(reply.body) : reply.body;

/** The identity answer: no coding named, the length it says, a JSON body. */
function expectIdentity(reply: RawReply, target: string) {
  expect(reply.headers["content-encoding"], target).toBeUndefined();
  if (reply.headers["content-length"] !== undefined)
    expect(Number(reply.headers["content-length"]), target).toBe(reply.body.byteLength);
  expect(() => JSON.parse(reply.body.toString("utf8")), target).not.toThrow();
}

forEachHost(({ test, client }) => {
  test("H1 no Accept-Encoding, or gzip refused → the identity body as raw bytes", async () => {
    const { origin } = client();
    for (const target of TARGETS) {
      const none = await rawRequest(origin, target);
      expectIdentity(none, target);
      for (const refusing of ["identity", "gzip;q=0", "br;q=0, gzip;q=0"]) {
        const reply = await rawRequest(origin, target, { headers: { "Accept-Encoding": refusing } });
        expectIdentity(reply, `${target} (${refusing})`);
        expect(reply.body.equals(none.body), `${target} (${refusing})`).toBe(true);
      }
    }
  });

  test("H1 Accept-Encoding: gzip → gzip or identity, decoding to the identity body", async () => {
    const { origin } = client();
    for (const target of TARGETS) {
      const none = await rawRequest(origin, target);
      const gzip = await rawRequest(origin, target, { headers: { "Accept-Encoding": "gzip" } });
      expect(gzip.status, target).toBe(none.status);
      expect([undefined, "gzip"], target).toContain(gzip.headers["content-encoding"]);
      expect(decoded(gzip).equals(none.body), target).toBe(true);
    }
  });
});
