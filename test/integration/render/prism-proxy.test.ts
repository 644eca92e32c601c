// Live validation: the real Node server behind Prism's validating proxy. Every response of the crawl must match the
// OpenAPI description (zero response violations), and every request violation must be one the case makes on purpose.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../../scripts/hosts/node/server/start-server.ts";
import { crawlCases } from "../../helpers/openapi/crawl-cases.ts";
import { buildOpenapiSite, type OpenapiSite } from "../../helpers/openapi/openapi-site.ts";
import { type Prism, startPrism } from "../../helpers/openapi/processes.ts";

interface Violation {
  location: string[];
  severity: string;
  code?: string;
  message: string;
}

const violationsOf = (res: Response): Violation[] =>
  JSON.parse(res.headers.get("sl-violations") ?? "[]") as Violation[];
const where = (v: Violation) => v.location.slice(1).join(".");

describe("live: the Node server behind prism proxy (OpenAPI request and response validation)", () => {
  let site: OpenapiSite;
  let api: Awaited<ReturnType<typeof startServer>>;
  let prism: Prism;
  let doc: {
    components: {
      responses: { NotModified: { headers: Record<string, { $ref: string }> } };
      headers: Record<string, { required?: boolean; schema: { const?: string } }>;
    };
  };
  const tally = {
    requests: 0,
    responseViolations: 0,
    unexpectedRequestViolations: 0,
    intendedRequestViolations: 0,
    prismMisreads: 0,
  };

  beforeAll(async () => {
    site = await buildOpenapiSite();
    doc = JSON.parse(await readFile(site.openapiPath, "utf8")) as typeof doc;
    api = await startServer({ distDir: site.dist, port: 0, host: "127.0.0.1" });
    // Prism routes by the description's paths (no base path), so the upstream carries the base path.
    prism = await startPrism(site.openapiPath, `${api.url}${site.table.basePath}`);
  });
  afterAll(async () => {
    await prism?.stop();
    await api?.close();
    await site?.remove();
    console.log(
      `prism crawl: ${tally.requests} requests, ${tally.responseViolations} response violations, ` +
        `${tally.unexpectedRequestViolations} unexpected request violations, ${tally.intendedRequestViolations} request violations made on purpose, ` +
        `${tally.prismMisreads} known Prism misreads`,
    );
  });

  it("crawls every operation, default, filter and error case with zero response violations", async () => {
    const cases = crawlCases(site.catalog);
    const failures: string[] = [];
    for (const c of cases) {
      const res = await fetch(prism.url + c.target, { signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      tally.requests++;
      const violations = violationsOf(res);
      const response = violations.filter((v) => v.location[0] !== "request");
      const request = violations.filter((v) => v.location[0] === "request");
      const misread = request.filter((v) => c.prismMisreads?.includes(where(v)));
      const unexpected = request.filter((v) => !c.breaks?.includes(where(v)) && !misread.includes(v));
      tally.responseViolations += response.length;
      tally.unexpectedRequestViolations += unexpected.length;
      tally.prismMisreads += misread.length;
      tally.intendedRequestViolations += request.length - unexpected.length - misread.length;
      for (const v of [...response, ...unexpected])
        failures.push(`${c.rule}: GET ${c.target}: ${where(v)}: ${v.message}`);
      if (res.status !== c.status)
        failures.push(`${c.rule}: GET ${c.target}: status ${res.status}, expected ${c.status}: ${text.slice(0, 200)}`);
      else if (c.code && (JSON.parse(text) as { error?: { code?: string } }).error?.code !== c.code)
        failures.push(`${c.rule}: GET ${c.target}: body ${text.slice(0, 200)}, expected code ${c.code}`);
    }
    expect(failures, prism.log().slice(-3000)).toEqual([]);
    expect(tally.requests).toBe(cases.length);
  });

  it("the description makes Prism catch a broken response (control: a mutated copy must report violations)", async () => {
    // Same server, a description that lies about one field and one header: Prism must flag both, or the crawl proves nothing.
    const { writeFile } = await import("node:fs/promises");
    const mutated = JSON.parse(await readFile(site.openapiPath, "utf8")) as {
      components: {
        schemas: { SoftwareSummary: { properties: Record<string, unknown> } };
        headers: Record<string, { schema: Record<string, unknown> }>;
      };
    };
    mutated.components.schemas.SoftwareSummary.properties.name = { type: "integer" };
    mutated.components.headers["Cache-Control"]!.schema = { type: "string", const: "no-store" };
    const path = site.openapiPath.replace(/openapi\.json$/, "openapi.mutated.json");
    await writeFile(path, JSON.stringify(mutated));
    const liar = await startPrism(path, `${api.url}${site.table.basePath}`);
    try {
      const res = await fetch(`${liar.url}/software?limit=1`, { signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      expect(violationsOf(res).map(where).sort()).toEqual(["body.data.0.name", "header.cache-control"]);
    } finally {
      await liar.stop();
    }
  });

  it("H3 a 304 carries every header the NotModified response declares (checked directly: see the note)", async () => {
    // Prism 5.14.2 parses every non-204 body whose Content-Type is JSON (prism-http utils/parseResponse), and the
    // server's 304 carries Content-Type (headers.all), so Prism answers 500 "invalid json". The 304 is checked here
    // against the description itself instead.
    const target = `${api.url}${site.table.basePath}/categories`;
    const first = await fetch(target, { signal: AbortSignal.timeout(10_000) });
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const res = await fetch(target, { headers: { "If-None-Match": etag! }, signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
    for (const [name, { $ref }] of Object.entries(doc.components.responses.NotModified.headers)) {
      const header = doc.components.headers[$ref.split("/").pop()!]!;
      const value = res.headers.get(name);
      if (header.required) expect(value, name).not.toBeNull();
      if (header.schema.const !== undefined) expect(value, name).toBe(header.schema.const);
    }
  });
});
