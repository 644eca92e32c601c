// MCP over HTTP (M4): POST /mcp on the Node server and the Worker, MCP's Streamable HTTP transport in its stateless
// form, each answer one JSON body (enableJsonResponse). One fresh McpServer and transport per request. Web APIs only
// (a Request in, a Response out): the Worker passes its Request as it is, the Node server converts its own
// (hosts/node/server/mcp-handler.ts).
//
// What it adds to the SDK's WebStandardStreamableHTTPServerTransport, which in stateless mode would open a
// never-ending event stream for GET, answer DELETE 200, OPTIONS 405, and set no CORS header:
// - GET, DELETE and any method but POST and OPTIONS: 405 with Allow: POST, OPTIONS (no stream to open, no session
//   to end);
// - OPTIONS: the CORS preflight; every answer carries Access-Control-Allow-Origin: * (the API is public, H2);
// - bound to loopback: a request whose Origin is not loopback is refused (403), as the transport's security notes ask
//   (DNS rebinding);
// - a declared Content-Length over 1 MiB: 413 before anything else is read;
// - never a 5xx: an exception is a 400 carrying a JSON-RPC error.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isLoopbackOrigin } from "./endpoint.ts";
/** A request body larger than this is refused with 413 (1 MiB: a tool call is a few hundred bytes). */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;

export interface McpHttpOptions {
  /** a fresh server per request: an McpServer serves one transport at a time, a stateless transport one request */
  createServer: () => McpServer;
  /** the server is bound to a loopback address: a request whose Origin is not loopback is refused (403) */
  loopbackOnly?: boolean;
  maxBodyBytes?: number;
}

const CORS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  // Stateless: no Mcp-Session-Id is ever sent, but a browser client looks for these.
  "Access-Control-Expose-Headers": "Mcp-Session-Id, Mcp-Protocol-Version",
  "X-Content-Type-Options": "nosniff",
};
const PREFLIGHT: Record<string, string> = {
  ...CORS,
  // GET and DELETE are listed so that a browser sees their 405 (the SDK's client takes a GET 405 as "no stream"),
  // not a CORS failure.
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Max-Age": "86400",
};

/** A JSON-RPC error response without id (the transport's form for errors of the request as a whole). */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "Content-Type": "application/json", ...CORS, ...headers },
  });
}

/**
 * Reads what is left of the body (at most `maxBytes`) and drops it: workerd closes a connection whose request body
 * was not read, and a keep-alive client reusing it gets a reset on its next request.
 */
async function discardBody(request: Request, maxBytes: number): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  const reader = request.body.getReader();
  try {
    for (let read = 0; read <= maxBytes; ) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // a body that fails to arrive: nothing to drop
  }
}

/** The answer to one request to /mcp: never a 5xx. */
export async function answerMcp(request: Request, options: McpHttpOptions): Promise<Response> {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_MCP_BODY_BYTES;
  try {
    const response = await answer(request, options, maxBodyBytes);
    await discardBody(request, maxBodyBytes);
    return response;
  } catch (e) {
    return rpcError(400, -32603, `Internal error: ${(e as Error)?.message ?? String(e)}`);
  }
}

async function answer(request: Request, options: McpHttpOptions, maxBodyBytes: number): Promise<Response> {
  const origin = request.headers.get("origin");
  if (options.loopbackOnly && origin !== null && !isLoopbackOrigin(origin))
    return rpcError(403, -32000, `Forbidden: Origin ${origin} is not allowed`);
  if (request.method === "OPTIONS") {
    const requested = request.headers.get("access-control-request-headers");
    return new Response(null, {
      status: 204,
      headers: { ...PREFLIGHT, "Access-Control-Allow-Headers": requested || "*" },
    });
  }
  if (request.method !== "POST") return rpcError(405, -32000, "Method not allowed.", { Allow: "POST, OPTIONS" });
  // Before the SDK's checks of Accept and Content-Type: an oversized body is refused whatever else it gets wrong.
  if (Number(request.headers.get("content-length")) > maxBodyBytes)
    return rpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBodyBytes} bytes`);
  const server = options.createServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: maxBodyBytes,
  });
  try {
    await server.connect(transport);
    // JSON mode: the Response is complete when this resolves (every answer written), so closing next is safe.
    const response = await transport.handleRequest(request);
    for (const [name, value] of Object.entries(CORS)) response.headers.set(name, value);
    return response;
  } finally {
    await server.close(); // the transport with it
  }
}
