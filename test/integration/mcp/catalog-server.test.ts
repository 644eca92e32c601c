// M1–M3 end to end: `npm run mcp` as a subprocess, the SDK's own Client, and the real Node server as the oracle. Every
// tool result must be the HTTP API's body for the same request, errors included; a rebuild must be seen at once, by
// the stdio server and by the Node server's /mcp (M4).
import { existsSync } from "node:fs";
import { mkdir, realpath, rename, rm, symlink } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { SLUG_PATTERN } from "../../../scripts/content/schema.ts";
import { type RunningServer, startServer } from "../../../scripts/hosts/node/server/start-server.ts";
import { repoRoot, tempDir } from "../../helpers/fs/dirs.ts";
import { copyTiny, editTiny, INSERTED_SLUG } from "../../helpers/hosts/node/edit-fixture.ts";
import { type McpSession, slugsIn, startMcp } from "../../helpers/mcp/harness.ts";

type Call =
  | { tool: "list_software"; args: { category?: string; limit?: number; offset?: number } }
  | { tool: "get_software"; args: { slug: string } }
  | { tool: "list_categories"; args: Record<string, never> }
  | { tool: "get_best_in_category"; args: { category: string } }
  | { tool: "search_software"; args: { q: string } };

/** The HTTP request a client of the API would send for a call, built here independently of the server's code. */
function httpPath(call: Call): string {
  switch (call.tool) {
    case "list_software": {
      const query = Object.entries(call.args)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${v}`);
      return `/software${query.length ? `?${query.join("&")}` : ""}`;
    }
    case "get_software":
      return `/software/${call.args.slug}`;
    case "list_categories":
      return "/categories";
    case "get_best_in_category":
      return `/best/${call.args.category}`;
    case "search_software":
      return `/search?q=${call.args.q}`;
  }
}

/** A pass-through to `upstream` that records each request it forwards: its target, If-None-Match and status. */
async function recordingProxy(upstream: string) {
  const seen: { target: string; ifNoneMatch: string | undefined; status: number }[] = [];
  const server: Server = createServer(async (req, res) => {
    const headers: Record<string, string> = {};
    for (const name of ["accept", "if-none-match"]) if (req.headers[name]) headers[name] = String(req.headers[name]);
    const answer = await fetch(upstream + req.url, { headers });
    seen.push({ target: req.url!, ifNoneMatch: headers["if-none-match"], status: answer.status });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/** Publishes `target` at `link` as the build does: a new link renamed over the old one. */
async function publish(link: string, target: string) {
  await rm(`${link}.next`, { force: true });
  await symlink(target, `${link}.next`);
  await rename(`${link}.next`, link);
}

describe("npm run mcp over a built dist/", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let content: string;
  let dist: string;
  let genB: string;
  let http: RunningServer;
  let api: string;
  let mcp: McpSession;
  let remote: McpSession;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let tools: Awaited<ReturnType<McpSession["client"]["listTools"]>>["tools"];

  beforeAll(async () => {
    dir = await tempDir("mcp-");
    content = await copyTiny(join(dir.path, "content"));
    await mkdir(join(dir.path, "store"));
    const genA = join(dir.path, "store/a");
    genB = join(dir.path, "store/b");
    await build({ contentDir: content, outDir: genA });
    dist = join(dir.path, "dist");
    await symlink(genA, dist);
    http = await startServer({ distDir: dist, port: 0 });
    api = http.url + http.basePath;
    // The API through a proxy that records what the server over --base-url asks it.
    proxy = await recordingProxy(http.url);
    // Both subprocesses start at once: the one over dist/ as a user starts it, the one over the API through node.
    [mcp, remote] = await Promise.all([
      startMcp(["--dist", dist]),
      startMcp(["--base-url", `${proxy.url}${http.basePath}/`], "node"),
    ]);
    // Listing also arms the client's own check of every structuredContent against the tool's output schema.
    tools = (await mcp.client.listTools()).tools;
  });
  afterAll(async () => {
    await Promise.all([mcp?.close(), remote?.close()]);
    await proxy?.close();
    await http?.close();
    await dir?.remove();
  });

  /** Calls the tool and the HTTP API alike and expects the same answer, byte for byte; returns the HTTP status. */
  async function expectSameAnswer(session: McpSession, call: Call): Promise<number> {
    const [result, response] = await Promise.all([
      session.client.callTool({ name: call.tool, arguments: call.args }),
      fetch(api + httpPath(call)),
    ]);
    const body = await response.text();
    const label = `${call.tool} ${JSON.stringify(call.args)} = GET ${httpPath(call)}`;
    expect(result.structuredContent, label).toStrictEqual(JSON.parse(body));
    expect(result.content, label).toStrictEqual([{ type: "text", text: body }]);
    expect(result.isError, label).toBe(response.status !== 200);
    return response.status;
  }

  it("lists the six tools: read-only, idempotent, closed-world, with the API's limits in their input schemas", () => {
    expect(tools.map((t) => t.name).sort()).toEqual([
      "find_software",
      "get_best_in_category",
      "get_software",
      "list_categories",
      "list_software",
      "search_software",
    ]);
    for (const t of tools) {
      expect(t.annotations, t.name).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(t.description, t.name).toBeTruthy();
      expect(t.outputSchema?.type, t.name).toBe("object");
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.list_software!.inputSchema).toMatchObject({
      type: "object",
      properties: {
        category: { type: "string", pattern: SLUG_PATTERN },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        offset: { type: "integer", minimum: 0 },
      },
    });
    expect(byName.list_software!.inputSchema.required ?? []).toEqual([]);
    expect(byName.get_software!.inputSchema).toMatchObject({
      properties: { slug: { type: "string", pattern: SLUG_PATTERN } },
      required: ["slug"],
    });
    expect(byName.get_best_in_category!.inputSchema).toMatchObject({
      properties: { category: { pattern: SLUG_PATTERN } },
      required: ["category"],
    });
    expect(Object.keys(byName.list_categories!.inputSchema.properties ?? {})).toEqual([]);
    expect(byName.find_software!.inputSchema).toMatchObject({
      type: "object",
      properties: {
        category: { type: "string", pattern: SLUG_PATTERN },
        hasMcpServer: { type: "boolean" },
        hasApi: { type: "boolean" },
        hasZapier: { type: "boolean" },
        hasMake: { type: "boolean" },
        hasFreePlan: { type: "boolean" },
        maxPrice: { type: "number", minimum: 0 },
        minRating: { type: "number", minimum: 0, maximum: 5 },
        sort: { type: "string", enum: ["name", "price", "rating"] },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        offset: { type: "integer", minimum: 0 },
      },
    });
    expect(byName.find_software!.inputSchema.required ?? []).toEqual([]);
  });

  it("a slug's example is of its own kind (a tool's names a tool of the sample), and prices are said to be US dollars per month", () => {
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const example = (tool: string, input: string) => {
      const property = byName[tool]!.inputSchema.properties?.[input] as { description?: string } | undefined;
      const description = property?.description ?? "";
      return /e\.g\. ([a-z0-9-]+)$/.exec(description)?.[1];
    };
    expect(existsSync(join(repoRoot, "content/tools", `${example("get_software", "slug")}.json`))).toBe(true);
    for (const [tool, input] of [
      ["get_best_in_category", "category"],
      ["list_software", "category"],
    ] as const) {
      expect(existsSync(join(repoRoot, "content/categories", `${example(tool, input)}.json`)), tool).toBe(true);
    }
    for (const tool of ["get_software", "get_best_in_category"])
      expect(byName[tool]!.description, tool).toContain("US dollars per month");
  });

  it("output schemas take exactly the success body or the error body, nothing in between", async () => {
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    const schemaOf = (name: string) => ajv.compile(tools.find((t) => t.name === name)!.outputSchema!);
    const list = schemaOf("list_software");
    const page = (await (await fetch(`${api}/software?limit=2`)).json()) as Record<string, unknown>;
    const error = (await (await fetch(`${api}/software?offset=999`)).json()) as Record<string, unknown>;
    expect(list(page), JSON.stringify(list.errors)).toBe(true);
    expect(list(error), JSON.stringify(list.errors)).toBe(true);
    expect(list({})).toBe(false);
    expect(list({ ...page, ...error })).toBe(false);
    expect(list({ data: page.data })).toBe(false);
    expect(list({ ...page, extra: 1 })).toBe(false);
    const tool = (await (await fetch(`${api}/software/quill`)).json()) as Record<string, unknown>;
    expect(schemaOf("get_software")(tool)).toBe(true);
    expect(schemaOf("get_software")(page)).toBe(false);
  });

  it("answers a seeded sample of requests exactly as the HTTP API, errors included", async () => {
    const categories = await slugsIn(content, "categories");
    const slugs = await slugsIn(content, "tools");
    const total = slugs.length;
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
    const category = fc.constantFrom(...categories, "no-such-category");
    const limit = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 100 }));
    const offset = fc.oneof(fc.integer({ min: 0, max: total + 2 }), fc.constant(Number.MAX_SAFE_INTEGER));
    const compact = <T extends object>(o: T) =>
      Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
    const call: fc.Arbitrary<Call> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .record({ category: maybe(category), limit: maybe(limit), offset: maybe(offset) })
          .map((a) => ({ tool: "list_software" as const, args: compact(a) })),
      },
      {
        weight: 2,
        arbitrary: fc
          .constantFrom(...slugs, "no-such-tool")
          .map((slug) => ({ tool: "get_software" as const, args: { slug } })),
      },
      { weight: 1, arbitrary: fc.constant({ tool: "list_categories" as const, args: {} }) },
      { weight: 2, arbitrary: category.map((c) => ({ tool: "get_best_in_category" as const, args: { category: c } })) },
    );
    // The edges every run covers, then the seeded sample.
    const edges: Call[] = [
      { tool: "list_software", args: {} },
      { tool: "list_software", args: { offset: total } },
      { tool: "list_software", args: { offset: total + 1 } },
      ...categories.map((c): Call => ({ tool: "list_software", args: { category: c, limit: 1 } })),
      ...categories.map((c): Call => ({ tool: "get_best_in_category", args: { category: c } })),
      ...["m", "mail", "zzzzqq", "a1"].map((q): Call => ({ tool: "search_software", args: { q } })),
    ];
    const calls = [...edges, ...fc.sample(call, { seed: 15, numRuns: 60 })];
    const statuses = new Map<string, Set<number>>();
    for (const c of calls) {
      const status = await expectSameAnswer(mcp, c);
      statuses.set(c.tool, (statuses.get(c.tool) ?? new Set()).add(status));
    }
    // Each tool was seen succeeding, and each one that can fail was seen failing.
    expect(statuses.get("list_software")).toEqual(new Set([200, 400, 404]));
    expect(statuses.get("get_software")).toEqual(new Set([200, 404]));
    expect(statuses.get("get_best_in_category")).toEqual(new Set([200, 404]));
    expect(statuses.get("list_categories")).toEqual(new Set([200]));
    expect(statuses.get("search_software")).toEqual(new Set([200]));
    expect(mcp.transportErrors).toEqual([]);
  });

  it("search_software folds q as names are folded (capitals, accents) before the API's rule applies, and says so", async () => {
    const search = tools.find((t) => t.name === "search_software")!;
    expect(search.description).toMatch(/folded/);
    for (const [sent, folded] of [
      ["Mail", "mail"],
      ["MÄIL", "mail"],
      ["Ñandú", "nandu"],
      ["A1", "a1"],
    ]) {
      const [result, response] = await Promise.all([
        mcp.client.callTool({ name: "search_software", arguments: { q: sent } }),
        fetch(`${api}/search?q=${folded}`),
      ]);
      expect(response.status).toBe(200);
      expect(result.structuredContent, sent).toStrictEqual(await response.json());
      expect(result.isError, sent).toBe(false);
    }
    // A text with no word, or a word longer than the API takes, is the API's own 400 and hint, as a tool result.
    for (const [sent, refused] of [
      ["-- !", "--%20!"],
      [`alpha ${"m".repeat(33)}`, "m".repeat(33)],
    ]) {
      const [result, response] = await Promise.all([
        mcp.client.callTool({ name: "search_software", arguments: { q: sent } }),
        fetch(`${api}/search?q=${refused}`),
      ]);
      expect(response.status, sent).toBe(400);
      expect(result.isError, sent).toBe(true);
      expect(result.structuredContent, sent).toStrictEqual(await response.json());
    }
  });

  it("search_software takes several words, each starting a word of the name: name order, the search answer's shape", async () => {
    const search = tools.find((t) => t.name === "search_software")!;
    expect(search.description).toMatch(/several/);
    expect(search.description).toMatch(/One word answers exactly what the HTTP API answers/);
    // The oracle: every tool from the HTTP list, its name's words made here, each typed word a prefix of one of them.
    const all = (await (await fetch(`${api}/software?limit=100`)).json()) as { data: { name: string }[] };
    const words = (text: string) =>
      text
        .normalize("NFKD")
        .replace(/\p{M}/gu, "")
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean);
    const expected = (q: string) => {
      const data = all.data.filter((t) => words(q).every((w) => words(t.name).some((n) => n.startsWith(w))));
      return { data, meta: { total: data.length, limit: 20 } };
    };
    const cases: [string, string[]][] = [
      ["Alpha Mail", ["alpha Mail"]],
      ["mail  B", ["Beta Mail"]],
      ["MAIL m", ["alpha Mail", "Beta Mail"]],
      ["Nandu crm", ["Ñandú CRM"]],
      ["mail seo", []],
    ];
    for (const [q, names] of cases) {
      const result = await mcp.client.callTool({ name: "search_software", arguments: { q } });
      expect(result.isError, q).toBe(false);
      expect(result.structuredContent, q).toStrictEqual(expected(q));
      expect(
        (result.structuredContent as { data: { name: string }[] }).data.map((t) => t.name),
        q,
      ).toEqual(names);
      expect(result.content, q).toStrictEqual([{ type: "text", text: JSON.stringify(expected(q)) }]);
    }
  });

  it("refuses arguments outside the API's limits before any request", async () => {
    const bad: [string, Record<string, unknown>][] = [
      ["list_software", { limit: 0 }],
      ["list_software", { limit: 101 }],
      ["list_software", { limit: 2.5 }],
      ["list_software", { offset: -1 }],
      ["list_software", { category: "Email" }],
      ["get_software", { slug: "../routes" }],
      ["get_software", {}],
      ["get_best_in_category", { category: "a b" }],
    ];
    for (const [name, args] of bad) {
      const result = await mcp.client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(JSON.stringify(result.content)).toMatch(/Input validation error/);
    }
  });

  it("serves the catalog as resources with the same bodies", async () => {
    const { client } = mcp;
    const text = async (uri: string) => {
      const { contents } = await client.readResource({ uri });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri, mimeType: "application/json" });
      return (contents[0] as { text: string }).text;
    };
    expect(await text("catalog://categories")).toBe(await (await fetch(`${api}/categories`)).text());
    expect(await text("catalog://software/quill")).toBe(await (await fetch(`${api}/software/quill`)).text());
    expect(await text("catalog://best/email")).toBe(await (await fetch(`${api}/best/email`)).text());
    const listed = (await client.listResources()).resources.map((r) => r.uri);
    for (const slug of await slugsIn(content, "tools")) expect(listed).toContain(`catalog://software/${slug}`);
    expect(listed).toContain("catalog://categories");
    await expect(client.readResource({ uri: "catalog://software/no-such-tool" })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it("answers from a new build as soon as it is published, over stdio and at the Node server's /mcp alike", async () => {
    // The Node server's /mcp answers from the build the server serves: it follows the publication with the API.
    const remoteHttp = new Client({ name: "catalog-mcp-test", version: "1.0.0" });
    await remoteHttp.connect(new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`)));
    const found = async (client: Client) => {
      const result = await client.callTool({ name: "find_software", arguments: { sort: "price", limit: 100 } });
      return result.structuredContent as { data: { slug: string }[]; meta: { total: number } };
    };
    try {
      expect((await mcp.client.callTool({ name: "get_software", arguments: { slug: INSERTED_SLUG } })).isError).toBe(
        true,
      );
      for (const client of [mcp.client, remoteHttp]) expect((await found(client)).meta.total).toBe(4);
      await editTiny(content, "v2");
      await build({ contentDir: content, outDir: genB });
      await publish(dist, genB);
      await http.reload();
      expect(http.root()).toBe(await realpath(genB));
      expect(await expectSameAnswer(mcp, { tool: "get_software", args: { slug: INSERTED_SLUG } })).toBe(200);
      expect(await expectSameAnswer(mcp, { tool: "list_software", args: { limit: 2, offset: 4 } })).toBe(200);
      expect(await expectSameAnswer(mcp, { tool: "get_software", args: { slug: "alpha-mail" } })).toBe(200);
      // find_software reads the new build's index, and its summaries from the same build.
      for (const client of [mcp.client, remoteHttp]) {
        const { data, meta } = await found(client);
        expect(meta.total).toBe(5);
        expect(data.map((t) => t.slug)).toContain(INSERTED_SLUG);
      }
      const viaHttp = await remoteHttp.callTool({ name: "get_software", arguments: { slug: INSERTED_SLUG } });
      expect(viaHttp.structuredContent).toStrictEqual(await (await fetch(`${api}/software/${INSERTED_SLUG}`)).json());
    } finally {
      await remoteHttp.close();
    }
  });

  it("says in one line when the build is gone, and recovers when it is back", async () => {
    await rm(dist);
    try {
      const result = await mcp.client.callTool({ name: "list_categories", arguments: {} });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(result.content).toEqual([{ type: "text", text: `no build at ${dist}: run \`npm run build\` first` }]);
    } finally {
      await symlink(genB, dist);
    }
    expect(await expectSameAnswer(mcp, { tool: "list_categories", args: {} })).toBe(200);
  });

  it("over --base-url, answers the same by calling the running API (open-world)", async () => {
    const listed = (await remote.client.listTools()).tools;
    for (const t of listed)
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: true });
    const calls: Call[] = [
      { tool: "list_software", args: { category: "email", limit: 2, offset: 1 } },
      { tool: "list_software", args: { offset: 999 } },
      { tool: "list_software", args: { category: "no-such-category" } },
      { tool: "get_software", args: { slug: INSERTED_SLUG } },
      { tool: "get_software", args: { slug: "no-such-tool" } },
      { tool: "list_categories", args: {} },
      { tool: "get_best_in_category", args: { category: "seo" } },
      { tool: "get_best_in_category", args: { category: "podcasts" } },
    ];
    for (const c of calls) await expectSameAnswer(remote, c);
    expect(remote.transportErrors).toEqual([]);
  });

  it("over --base-url, several words are one request for the export, revalidated by its ETag on the next search", async () => {
    proxy.seen.length = 0;
    const search = (q: string) => remote.client.callTool({ name: "search_software", arguments: { q } });
    const first = await search("alpha mail");
    const again = await search("beta m");
    const one = await search("Quill");
    expect((first.structuredContent as { meta: unknown }).meta).toEqual({ total: 1, limit: 20 });
    expect((again.structuredContent as { data: { slug: string }[] }).data.map((t) => t.slug)).toEqual(["beta-mail"]);
    const exported = `${http.basePath}/export/catalog.json`;
    const etag = (await fetch(`${api}/export/catalog.json`)).headers.get("etag")!;
    expect(proxy.seen).toEqual([
      { target: exported, ifNoneMatch: undefined, status: 200 },
      { target: exported, ifNoneMatch: etag, status: 304 },
      { target: `${http.basePath}/search?q=quill`, ifNoneMatch: undefined, status: 200 },
    ]);
    expect(one.structuredContent).toStrictEqual(await (await fetch(`${api}/search?q=quill`)).json());
  });
});
