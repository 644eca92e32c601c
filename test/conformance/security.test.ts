// Hostile requests, sent byte for byte: never a 2xx, never a 5xx, never a file's contents, and the host survives.
import { expect } from "vitest";
import { CANARY } from "../helpers/conformance/canary.ts";
import { categoryWith } from "../helpers/conformance/catalog.ts";
import { suiteContext } from "../helpers/conformance/context.ts";
import { expectError, parseJson } from "../helpers/conformance/expect-response.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import type { Client } from "../helpers/conformance/http.ts";
import { type RawReply, rawRequest, rawSend } from "../helpers/conformance/raw-http.ts";

const { catalog } = suiteContext();
const base = catalog.basePath;
const tool = catalog.tools[0]!;
const listed = categoryWith(catalog, "listed");
/** text that only a leaked file would hold: routes.json, /etc/passwd, the planted canary, a page or tool file */
const LEAKS = [
  /"basePath"/,
  /"routes"\s*:/,
  /root:.*:0:0:/,
  new RegExp(CANARY),
  /"pricingPlans"/,
  /"meta"/,
  /<title>Index of/i,
];

/** a refusal: 400, 404 (as a JSON error), 414 or 431, or the connection closed without an answer */
function expectRefused(reply: RawReply, what: string, allowed = [400, 404, 414, 431]) {
  const text = reply.raw.toString("latin1");
  for (const leak of LEAKS) expect(text, `${what}: leaks ${leak}`).not.toMatch(leak);
  if (reply.status === undefined) return; // connection closed: acceptable
  expect(allowed, `${what}: status ${reply.status}`).toContain(reply.status);
  if (reply.status === 404) {
    const body = parseJson(reply.body.toString("utf8"), what) as { error: { code: string } };
    expect(["not_found", "software_not_found", "category_not_found"], what).toContain(body.error.code);
  }
}

async function expectAlive(client: Client) {
  const reply = await client.get(`${base}/categories`);
  expect(reply.status, "the host still answers GET /categories").toBe(200);
}

async function probe(client: Client, targets: string[], options: { method?: string; allowed?: number[] } = {}) {
  for (const target of targets)
    expectRefused(
      await rawRequest(client.origin, target, { method: options.method }),
      `${options.method ?? "GET"} ${target}`,
      options.allowed,
    );
  await expectAlive(client);
}

forEachHost(({ test, client }) => {
  test("security: .. traversal never leaves the API", async () => {
    await probe(client(), [
      "/../routes.json",
      "/../../../../etc/passwd",
      `${base}/../routes.json`,
      `${base}/../../../../../../etc/passwd`,
      `${base}/software/../../routes.json`,
      `${base}/best/../../errors/not_found.json`,
      `${base}/software/../../.env`,
      `${base}/software/${tool.slug}/../../../routes.json`,
    ]);
  });

  test("security: encoded traversal (%2e%2e, %2f, double encoding, overlong UTF-8) never leaves the API", async () => {
    await probe(client(), [
      `${base}/software/%2e%2e/%2e%2e/routes.json`,
      `${base}/software/%2e%2e%2f%2e%2e%2froutes.json`,
      `${base}/software/..%2f..%2froutes.json`,
      `${base}/software/..%2F..%2F..%2F..%2Fetc%2Fpasswd`,
      `${base}/%2e%2e/routes.json`,
      `/%2e%2e/%2e%2e/etc/passwd`,
      `${base}/software/%252e%252e%252froutes.json`,
      `${base}/software/%c0%ae%c0%ae%c0%afroutes.json`,
      `${base}/best/..%2f..%2f.env`,
    ]);
  });

  test("security: backslashes and %5c never leave the API", async () => {
    await probe(client(), [
      `${base}/software/..\\..\\routes.json`,
      `${base}\\..\\routes.json`,
      `${base}/software/..%5c..%5croutes.json`,
      `${base}/software/%5c..%5c..%5c.env`,
      `\\..\\routes.json`,
    ]);
  });

  test("security: NUL %00 never truncates a path into a file", async () => {
    await probe(client(), [
      `${base}/software/${tool.slug}%00`,
      `${base}/software/${tool.slug}%00.json`,
      `${base}/categories%00`,
      `/routes.json%00`,
      `${base}/software/%00../../routes.json`,
      `${base}/best/${listed.slug}%00/../../routes.json`,
    ]);
  });

  test("security: malformed percent-encoding (%zz, %, %e9) answers 404, never 5xx", async () => {
    await probe(client(), [
      `${base}/software/%zz`,
      `${base}/software/%`,
      `${base}/%`,
      "/%zz",
      `${base}/software/%e9`,
      `${base}/best/%c3%28`,
      `${base}/%%32%65`,
    ]);
  });

  test("security: CRLF %0d%0a in a path or query injects no header", async () => {
    for (const target of [
      `${base}/software/%0d%0aSet-Cookie:%20injected=1`,
      `${base}/nope%0d%0aX-Injected:%201`,
      `${base}/software?category=%0d%0aX-Injected:%201`,
      `${base}/software?limit=5%0d%0aX-Injected:%201`,
    ]) {
      const reply = await rawRequest(client().origin, target);
      expectRefused(reply, target);
      expect(reply.headers["set-cookie"], target).toBeUndefined();
      expect(reply.headers["x-injected"], target).toBeUndefined();
    }
    // a raw CR or LF inside the request line is malformed HTTP
    const { host } = new URL(client().origin);
    for (const line of [`GET ${base}/software/a\rb HTTP/1.1`, `GET ${base}/software\n/x HTTP/1.1`]) {
      expectRefused(
        await rawSend(client().origin, Buffer.from(`${line}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, "latin1")),
        JSON.stringify(line),
      );
    }
    await expectAlive(client());
  });

  test("security: a 64 KiB request line is refused (404/414/431/400 or closed), never served", async () => {
    const long = "a".repeat(64 * 1024);
    await probe(client(), [`${base}/software/${long}`, `${base}/software?limit=${long}`, `/${long}`]);
    // 64 KiB of headers too: refused, whatever the path (431 says it best)
    const reply = await rawRequest(client().origin, `${base}/categories`, { headers: { "X-Padding": long } });
    expectRefused(reply, "64 KiB header", [400, 404, 413, 431]);
    await expectAlive(client());
  });

  test("security: dotfiles and config files inside and outside the base path are not served", async () => {
    await probe(client(), [
      "/.env",
      "/.git/config",
      "/.htaccess",
      "/routes.json",
      "/serve.json",
      "/nginx.conf",
      "/nginx/nginx.conf",
      "/netlify.toml",
      "/_redirects",
      "/package.json",
      "/errors/not_found.json",
      `${base}/.env`,
      `${base}/routes.json`,
      `${base}/software/.env`,
      `${base}/software/.canary.json`,
      `${base}/best/.canary.json`,
      `${base}/.git/HEAD`,
      `${base}/software/pages/all/20/0.json`,
    ]);
  });

  test("security: absolute-form targets never reach outside the API", async () => {
    const origin = client().origin;
    await probe(client(), [
      `${origin}/routes.json`,
      `${origin}/../routes.json`,
      `http://evil.example${base}/../routes.json`,
      `http://evil.example/.env`,
      `file:///etc/passwd`,
      `${origin}${base}/software/%2e%2e%2f%2e%2e%2froutes.json`,
    ]);
  });

  test("security: category, limit and offset values never become file paths (Q1, Q5)", async () => {
    const list = `${base}/software`;
    for (const value of [
      "../all",
      "..%2fall",
      "..%2F..%2Froutes",
      "all",
      `category/${listed.slug}`,
      `category%2F${listed.slug}`,
      `${listed.slug}/20/0`,
      `${listed.slug}%2F20`,
      `../../../routes.json%00`,
      `${listed.slug}%00`,
      `.${listed.slug}`,
    ]) {
      expectError(await rawRequest(client().origin, `${list}?category=${value}`), 404, "category_not_found");
    }
    for (const value of ["20/../100", "20%2F..%2F100", "../20", "20%00", "20/"]) {
      expectError(await rawRequest(client().origin, `${list}?limit=${value}`), 400, "invalid_limit");
    }
    for (const value of ["0/../1", "0%2f..", "../0", "0%00"]) {
      expectError(await rawRequest(client().origin, `${list}?offset=${value}`), 400, "invalid_offset");
    }
    await expectAlive(client());
  });

  test("security: an unknown or lower-case method token never succeeds (P6: 405, or a parser's 400/501)", async () => {
    // P6 wants 405; an HTTP parser that does not know the token may refuse it first with 400 or 501, never 404
    for (const method of ["FOO", "get", "G\u00e9T", "CONNECT"]) {
      const reply = await rawRequest(client().origin, method === "CONNECT" ? "127.0.0.1:1" : `${base}/categories`, {
        method,
      });
      expectRefused(reply, method, [400, 405, 501]);
    }
    await expectAlive(client());
  });
});
