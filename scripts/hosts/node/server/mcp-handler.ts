// POST /mcp on the Node server (M4): the request as a Web Request, answered by mcp/http.ts over the build this server
// serves (the generation of the handler answering now, so MCP and the API follow a publication together), the Response
// written back. The body is read to its end before anything is answered, as the API handler reads it: a response
// never goes out while the client is still sending (which would reset the connection instead of a 413); at most
// 1 MiB + 1 byte of it is kept.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createDistSource } from "../../../mcp/dist-source.ts";
import { answerMcp, MAX_MCP_BODY_BYTES } from "../../../mcp/http.ts";
import { packageVersion } from "../../../mcp/package-version.ts";
import { createCatalogServer } from "../../../mcp/tools.ts";

const UNREADABLE = JSON.stringify({
  jsonrpc: "2.0",
  error: { code: -32700, message: "Parse error: the request did not arrive whole" },
  id: null,
});
/** Methods a Web Request refuses to carry: any method but POST and OPTIONS answers 405 alike, so one stands in. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

export interface McpHandler {
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** `root`: the generation folder served now; `loopbackOnly`: the server listens on a loopback address only. */
export function createMcpHandler(root: () => string, loopbackOnly: () => boolean): McpHandler {
  const source = createDistSource(root);
  const version = packageVersion();
  return {
    handle(req, res) {
      toWebRequest(req, MAX_MCP_BODY_BYTES)
        .then((request) =>
          answerMcp(request, {
            createServer: () => createCatalogServer(source, version),
            loopbackOnly: loopbackOnly(),
          }),
        )
        .then((response) => sendWebResponse(res, response))
        .catch(() => {
          // The request did not arrive whole (the client went away): if anyone still listens, a 400.
          if (res.headersSent) return void res.end();
          res.writeHead(400, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" });
          res.end(UNREADABLE);
        });
    },
  };
}

/** The request as a Web Request once its body is read whole; past `maxBytes` + 1 the rest is read and dropped, so a
 *  body over the limit stays over it and is answered 413. */
function toWebRequest(req: IncomingMessage, maxBytes: number): Promise<Request> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    req.on("data", (chunk: Buffer) => {
      if (kept > maxBytes) return;
      const part = chunk.subarray(0, maxBytes + 1 - kept);
      chunks.push(part);
      kept += part.length;
    });
    req.on("error", reject);
    req.on("end", () => {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        try {
          headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
        } catch {
          // a header value Node lets through and Headers refuses: dropped
        }
      }
      const method = FORBIDDEN_METHODS.has(req.method ?? "") ? "PUT" : req.method;
      const hasBody = method !== "GET" && method !== "HEAD";
      try {
        // Never built from the Host header (which may be anything): the URL only carries the path.
        resolve(
          new Request(new URL(req.url?.startsWith("/") ? req.url : "/", "http://localhost"), {
            method,
            headers,
            body: hasBody ? Buffer.concat(chunks) : null,
          }),
        );
      } catch (e) {
        reject(e);
      }
    });
  });
}

async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}
