// The docs page and the API on one origin, as the proposed route-table `pages` list would serve them: the page
// files at their own paths, every other request through the real API handler of the Node server.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { DOCS_FILES } from "../../../scripts/render/docs-page.ts";
import { createApiHandler } from "../../../scripts/server/start-server.ts";

export async function startDocsServer(distDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const { handle } = await createApiHandler(distDir);
  const pages = new Map<string, { file: string; contentType: string }>(Object.values(DOCS_FILES).map((p) => [p.path, p]));
  const server = createServer((req, res) => {
    const page = req.method === "GET" || req.method === "HEAD" ? pages.get((req.url ?? "/").split("?")[0]!) : undefined;
    if (!page) return handle(req, res);
    readFile(join(distDir, page.file)).then(
      (body) => {
        res.writeHead(200, { "Content-Type": page.contentType, "Content-Length": body.byteLength, "X-Content-Type-Options": "nosniff" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      () => {
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
