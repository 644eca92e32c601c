// Over --base-url, what is not the API's answer (nothing listening, a page that is not the API) fails the call in
// one line instead of being passed on as if it were a body.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpSource } from "../../../scripts/mcp/http-source.ts";
import { SourceUnavailable } from "../../../scripts/mcp/source.ts";

describe("the --base-url source", () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/v1/slow") return void setTimeout(() => res.end("{}"), 2_000);
      res
        .writeHead(req.url === "/v1/categories" ? 200 : 502, { "content-type": "text/html" })
        .end("<h1>a web page</h1>");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("names the API and why when the answer is not one", async () => {
    const source = createHttpSource(`${origin}/v1`);
    await expect(source.get("/categories")).rejects.toThrow(
      new SourceUnavailable(
        `the API at ${origin}/v1 answered ${origin}/v1/categories with 200 (not JSON) — is --base-url the API's base path?`,
      ),
    );
    await expect(source.get("/software")).rejects.toThrow(/answered .*\/v1\/software with 502/);
    await expect(createHttpSource(`${origin}/v1`, 300).get("/slow")).rejects.toThrow(
      `the API at ${origin}/v1 did not answer (TimeoutError)`,
    );
    server.closeAllConnections();
  });

  it("names the API when nothing listens there", async () => {
    // A port that was free a moment ago: listened on, then closed.
    const spare = createServer();
    await new Promise<void>((r) => spare.listen(0, "127.0.0.1", r));
    const { port } = spare.address() as AddressInfo;
    await new Promise<void>((r) => spare.close(() => r()));
    await expect(createHttpSource(`http://127.0.0.1:${port}/v1`).get("/categories")).rejects.toThrow(
      new SourceUnavailable(`the API at http://127.0.0.1:${port}/v1 did not answer (ECONNREFUSED)`),
    );
  });
});
