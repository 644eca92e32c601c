// M4, M2, M5, P9: MCP at /mcp. On the hosts that answer it (the Node server, the Worker over Static Assets and over R2)
// the SDK's own client connects by URL over Streamable HTTP, lists the six tools and the resources and calls each: a
// call that mirrors an endpoint answers that endpoint's body from the same host, several search words and
// find_software answer as oracles computed from the host's catalog body. Then what the transport's edges answer:
// wrong methods, the preflight, oversized and malformed bodies, a foreign Origin (every host here listens on
// loopback); never a 5xx. The hosts without MCP (nginx, file hosts) answer /mcp as no endpoint.
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import fc from "fast-check";
import { afterAll, beforeAll, expect } from "vitest";
import { categoryWith } from "../helpers/conformance/catalog.ts";
import { api, suiteContext } from "../helpers/conformance/context.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import { rawSend } from "../helpers/conformance/raw-http.ts";
import { wordsOf } from "../helpers/conformance/search-oracle.ts";
import { expectedFindBody, type FindCall, FLAG_NAMES, type OracleTool } from "../helpers/mcp/find-oracle.ts";

const { catalog } = suiteContext();
const MIB = 1024 * 1024;
const JSON_RPC_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const TOOLS_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

type ExportedTool = OracleTool & Record<string, unknown>;
interface CatalogBody {
  data: { software: ExportedTool[]; categories: { slug: string }[] };
}
interface CallResult {
  content: { type: string; text: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** A request over a connection of its own, closed after the answer (an early 413 may leave workerd to drop it). */
function postRaw(
  origin: string,
  { body, headers = {} }: { body: Buffer | Buffer[]; headers?: Record<string, string> },
) {
  const chunked = Array.isArray(body);
  const head = [
    "POST /mcp HTTP/1.1",
    `Host: ${new URL(origin).host}`,
    "Connection: close",
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${body.length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ].join("\r\n");
  const payload = chunked
    ? Buffer.concat([
        ...body.flatMap((c) => [Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from("\r\n")]),
        Buffer.from("0\r\n\r\n"),
      ])
    : body;
  return rawSend(origin, Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), payload]), { timeoutMs: 20_000 });
}

forEachHost(({ host, test, client }) => {
  if (host.mcp === undefined) return;
  if (!host.mcp) {
    test("P9 M4 a host without MCP answers /mcp as no endpoint", async () => {
      expect((await client().get("/mcp")).status).toBe(404);
      const posted = await client().request("/mcp", { method: "POST", headers: JSON_RPC_HEADERS, body: TOOLS_LIST });
      expect([404, 405]).toContain(posted.status);
    });
    return;
  }

  let mcp: McpClient;
  let exported: CatalogBody;
  beforeAll(async () => {
    mcp = new McpClient({ name: "conformance", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${client().origin}/mcp`)));
    exported = await client().data<CatalogBody>(api(catalog, "/export/catalog.json"));
  });
  afterAll(async () => {
    await mcp?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await mcp.callTool({ name, arguments: args })) as CallResult;

  /** The tool's result is the HTTP API's answer to `target` on this host: text byte for byte, isError for an error. */
  async function expectApiAnswer(name: string, args: Record<string, unknown>, target: string) {
    const [result, reply] = await Promise.all([call(name, args), client().get(api(catalog, target))]);
    const label = `${name} ${JSON.stringify(args)} = GET ${target}`;
    expect(result.content, label).toEqual([{ type: "text", text: reply.text }]);
    expect(result.structuredContent, label).toEqual(JSON.parse(reply.text));
    expect(result.isError, label).toBe(reply.status !== 200);
    return reply.status;
  }

  test("M4 M2 an SDK client connects by URL and lists the six tools, read-only, idempotent and closed-world", async () => {
    expect(mcp.getServerVersion()).toMatchObject({ name: "marketing-software-catalog" });
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "find_software",
      "get_best_in_category",
      "get_software",
      "list_categories",
      "list_software",
      "search_software",
    ]);
    for (const t of tools)
      expect(t.annotations, t.name).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
  });

  test("M4 M2 the resources: every tool and category listed, each read as the API's body", async () => {
    const { resources } = await mcp.listResources();
    const uris = resources.map((r) => r.uri);
    for (const t of catalog.tools) expect(uris).toContain(`catalog://software/${t.slug}`);
    expect(uris).toContain("catalog://categories");
    const listed = categoryWith(catalog, "listed");
    expect(uris).toContain(`catalog://best/${listed.slug}`);
    const { resourceTemplates } = await mcp.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate).sort()).toEqual([
      "catalog://best/{category}",
      "catalog://software/{slug}",
    ]);
    const read = async (uri: string) => ((await mcp.readResource({ uri })).contents[0] as { text: string }).text;
    const tool = catalog.tools[0]!.slug;
    expect(await read("catalog://categories")).toBe((await client().get(api(catalog, "/categories"))).text);
    expect(await read(`catalog://software/${tool}`)).toBe((await client().get(api(catalog, `/software/${tool}`))).text);
    expect(await read(`catalog://best/${listed.slug}`)).toBe(
      (await client().get(api(catalog, `/best/${listed.slug}`))).text,
    );
    await expect(mcp.readResource({ uri: "catalog://software/no-such-tool" })).rejects.toMatchObject({ code: -32002 });
  });

  test("M4 M2 each tool that mirrors an endpoint answers its body, errors included; one search word is the API's search", async () => {
    const listed = categoryWith(catalog, "listed");
    const tool = catalog.tools[0]!.slug;
    const total = catalog.tools.length;
    const statuses = [
      await expectApiAnswer("list_software", {}, "/software"),
      await expectApiAnswer(
        "list_software",
        { category: listed.slug, limit: 2, offset: 1 },
        `/software?limit=2&offset=1&category=${listed.slug}`,
      ),
      await expectApiAnswer("list_software", { offset: total + 1 }, `/software?offset=${total + 1}`),
      await expectApiAnswer("list_software", { category: "no-such-category" }, "/software?category=no-such-category"),
      await expectApiAnswer("get_software", { slug: tool }, `/software/${tool}`),
      await expectApiAnswer("get_software", { slug: "no-such-tool" }, "/software/no-such-tool"),
      await expectApiAnswer("list_categories", {}, "/categories"),
      await expectApiAnswer("get_best_in_category", { category: listed.slug }, `/best/${listed.slug}`),
      await expectApiAnswer("get_best_in_category", { category: "no-such-category" }, "/best/no-such-category"),
      await expectApiAnswer("search_software", { q: "mail" }, "/search?q=mail"),
      await expectApiAnswer("search_software", { q: "Mäil" }, "/search?q=mail"),
      await expectApiAnswer("search_software", { q: "zzqqx" }, "/search?q=zzqqx"),
    ];
    expect(new Set(statuses)).toEqual(new Set([200, 400, 404]));
  });

  test("M4 several search words answer as the oracle over the catalog body", async () => {
    const tools = exported.data.software;
    for (const q of [
      "alpha mail",
      "Sparrow SMS",
      "mail m",
      "mail zzqqx",
      `${wordsOf(tools[0]!.name).join(" ")} ${wordsOf(tools[0]!.name)[0]}`,
    ]) {
      const words = wordsOf(q);
      const data = tools.filter((t) => words.every((w) => wordsOf(t.name).some((n) => n.startsWith(w))));
      const summaries = data.slice(0, 20).map((t) => summaryOf(t));
      const result = await call("search_software", { q });
      expect(result.isError, q).toBe(false);
      expect(result.content[0]!.text, q).toBe(
        JSON.stringify({ data: summaries, meta: { total: data.length, limit: 20 } }),
      );
    }
  });

  test("M5 find_software answers as the oracle over the catalog body: every filter alone, combinations, every sort, pages at the edges", async () => {
    const tools = exported.data.software;
    const categories = exported.data.categories.map((c) => c.slug);
    const listed = categoryWith(catalog, "listed").slug;
    const empty = categories.find((c) => !tools.some((t) => t.categories.includes(c)));
    const alone: FindCall[] = [
      {},
      ...FLAG_NAMES.flatMap((flag) => [{ [flag]: true }, { [flag]: false }]),
      { category: listed },
      ...(empty ? [{ category: empty }] : []),
      { maxPrice: 0 },
      { maxPrice: 19 },
      { minRating: 0 },
      { minRating: 4.2 },
      { sort: "price", limit: 100 },
      { sort: "rating", limit: 100 },
      { sort: "name", limit: 100 },
    ];
    const combined: FindCall[] = [
      { category: listed, hasMcpServer: true, hasFreePlan: true, sort: "price" },
      { hasApi: true, maxPrice: 50, minRating: 4, sort: "rating", limit: 100 },
      { hasZapier: true, hasMake: false, sort: "price", limit: 5, offset: 2 },
      ...fc.sample(
        fc.record(
          {
            category: fc.constantFrom(...categories),
            hasMcpServer: fc.boolean(),
            hasApi: fc.boolean(),
            hasFreePlan: fc.boolean(),
            maxPrice: fc.constantFrom(0, 9, 29, 100),
            minRating: fc.constantFrom(0, 3.9, 4.5),
            sort: fc.constantFrom("name" as const, "price" as const, "rating" as const),
            limit: fc.integer({ min: 1, max: 100 }),
          },
          { requiredKeys: [] },
        ),
        { seed: 49, numRuns: 12 },
      ),
    ];
    const all = tools.length;
    const apiTotal = tools.filter((t) => t.hasApi).length;
    const edges: FindCall[] = [0, all - 1, all, all + 1].flatMap((offset) => [
      { offset, limit: 1 },
      { offset, limit: 100, sort: "price" as const },
    ]);
    edges.push(...[0, apiTotal - 1, apiTotal, apiTotal + 1].map((offset) => ({ hasApi: true, offset, limit: 1 })));
    for (const c of [...alone, ...combined, ...edges]) {
      const result = await call("find_software", c as Record<string, unknown>);
      const expected = expectedFindBody(tools, categories, c);
      expect(expected, JSON.stringify(c)).not.toBe("unknown category");
      expect(result.isError, JSON.stringify(c)).toBe(false);
      expect(result.content, JSON.stringify(c)).toEqual([{ type: "text", text: expected }]);
      expect(result.structuredContent, JSON.stringify(c)).toEqual(JSON.parse(expected as string));
    }
    // An unknown category: the API's own category_not_found body, as an error result.
    const unknown = await call("find_software", { category: "no-such-category" });
    const reply = await client().get(api(catalog, "/software?category=no-such-category"));
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toEqual([{ type: "text", text: reply.text }]);
  });

  test("M4 GET, DELETE, PUT and HEAD on /mcp answer 405 with Allow: POST, OPTIONS: no stream to open, no session to end", async () => {
    for (const method of ["GET", "DELETE", "PUT", "HEAD"]) {
      const reply = await client().request("/mcp", { method, headers: { accept: "text/event-stream" } });
      expect(reply.status, method).toBe(405);
      expect(reply.headers.get("allow"), method).toBe("POST, OPTIONS");
      expect(reply.headers.get("access-control-allow-origin"), method).toBe("*");
      if (method !== "HEAD")
        expect(JSON.parse(reply.text), method).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    }
  });

  test("M4 OPTIONS on /mcp is the CORS preflight; answers carry Access-Control-Allow-Origin: *", async () => {
    const preflight = await client().request("/mcp", {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-protocol-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type, mcp-protocol-version");
    const posted = await client().request("/mcp", { method: "POST", headers: JSON_RPC_HEADERS, body: TOOLS_LIST });
    expect(posted.status).toBe(200);
    expect(posted.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("M4 a body over 1 MiB answers 413, declared or chunked; one of exactly 1 MiB is read", async () => {
    const origin = client().origin;
    const exactly = Buffer.from(TOOLS_LIST.padEnd(MIB, " "));
    const atLimit = await postRaw(origin, { body: exactly });
    expect(atLimit.status).toBe(200);
    expect(JSON.parse(atLimit.body.toString()).result.tools).toHaveLength(6);
    const over = Buffer.concat([exactly, Buffer.from(" ")]);
    for (const [how, body] of [
      ["declared", over],
      ["chunked", Array.from({ length: 17 }, (_, i) => over.subarray(i * 65536, (i + 1) * 65536))],
    ] as const) {
      const reply = await postRaw(origin, { body: body as Buffer | Buffer[] });
      expect(reply.status, how).toBe(413);
      expect(JSON.parse(reply.body.toString()), how).toMatchObject({
        error: { message: expect.stringContaining("1048576") },
      });
    }
  });

  test("M4 malformed JSON-RPC answers a JSON-RPC error, never a 5xx", async () => {
    for (const body of ["{not json", "", '{"jsonrpc":"2.0","method":7}', '["x"]']) {
      const reply = await client().request("/mcp", { method: "POST", headers: JSON_RPC_HEADERS, body });
      expect(reply.status, body).toBe(400);
      expect(JSON.parse(reply.text), body).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
    }
    const unknownMethod = await client().request("/mcp", {
      method: "POST",
      headers: JSON_RPC_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "no/such/method" }),
    });
    expect(unknownMethod.status).toBe(200);
    expect(JSON.parse(unknownMethod.text)).toMatchObject({ id: 9, error: { code: -32601 } });
  });

  test("M4 bound to loopback, a request with a foreign Origin is refused with 403; a loopback Origin is served", async () => {
    for (const origin of ["https://app.example", "null", "http://127.0.0.1.example"]) {
      for (const method of ["POST", "OPTIONS"]) {
        const reply = await client().request("/mcp", {
          method,
          headers: { ...JSON_RPC_HEADERS, origin },
          body: method === "POST" ? TOOLS_LIST : undefined,
        });
        expect(reply.status, `${method} from ${origin}`).toBe(403);
      }
    }
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:8080", "http://[::1]"]) {
      const reply = await client().request("/mcp", {
        method: "POST",
        headers: { ...JSON_RPC_HEADERS, origin },
        body: TOOLS_LIST,
      });
      expect(reply.status, origin).toBe(200);
    }
  });
});

/** A catalog body item cut to a SoftwareSummary's fields, in the contract's order. */
function summaryOf(t: ExportedTool) {
  const { name, slug, shortDescription, url, websiteUrl, rating, hasFreePlan, hasMcpServer, hasApi, categories } = t;
  return { name, slug, shortDescription, url, websiteUrl, rating, hasFreePlan, hasMcpServer, hasApi, categories };
}
