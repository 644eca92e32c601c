// The Node host: one HTTP server over the build published at --dist, following each new publication (B5).
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { resolve } from "node:path";
import { isLoopbackAddress, isMcpTarget } from "../../../mcp/endpoint.ts";
import type { PrebuiltResponse } from "./api-handler.ts";
import { followDist } from "./follow-dist.ts";
import type { McpHandler } from "./mcp-handler.ts";

export interface ServerOptions {
  distDir: string;
  port?: number;
  host?: string;
  /** explicit timeouts (ms); the defaults suit a public host, tests shorten them */
  timeouts?: Partial<ServerTimeouts>;
  /** bytes of file bodies (and misses) kept in memory */
  cacheBytes?: number;
  /** told each time a newly published build starts being served */
  onSwitch?: () => void;
}

export interface ServerTimeouts {
  /** a client has this long to send a request's headers (slowloris), then the connection is closed */
  headers: number;
  /** and this long for the whole request */
  request: number;
  /** an idle keep-alive connection is closed after this */
  keepAlive: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = { headers: 10_000, request: 30_000, keepAlive: 5_000 };

export interface RunningServer {
  /** origin, e.g. http://127.0.0.1:3000 */
  url: string;
  basePath: string;
  /** the real folder of the build served now */
  root(): string;
  /** looks at --dist now (with `force`, reloads even an unchanged folder); resolves once the newest build serves */
  reload(force?: boolean): Promise<void>;
  close(): Promise<void>;
}

/** Parser errors about a request's framing: its body cannot be delimited, so it is a 400 and the connection ends. */
const FRAMING_ERRORS = new Set([
  "HPE_INVALID_TRANSFER_ENCODING",
  "HPE_INVALID_CHUNK_SIZE",
  "HPE_INVALID_CONTENT_LENGTH",
  "HPE_UNEXPECTED_CONTENT_LENGTH",
  "HPE_CHUNK_EXTENSIONS_OVERFLOW",
  "HPE_INVALID_EOF_STATE",
  "HPE_STRICT",
  "HPE_CR_EXPECTED",
  "HPE_LF_EXPECTED",
]);

/** The response a socket is answering now, if any (Node keeps it there until it is finished). */
const inFlight = (socket: Socket) => (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;

function writeRaw(socket: Socket, { status, headers, body }: PrebuiltResponse, withBody: boolean) {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`];
  for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`);
  const head = [...lines, "Connection: close", "", ""].join("\r\n");
  socket.end(withBody ? Buffer.concat([Buffer.from(head), body]) : head);
}

export async function startServer({
  distDir,
  port = 3000,
  host = "127.0.0.1",
  timeouts,
  cacheBytes,
  onSwitch,
}: ServerOptions): Promise<RunningServer> {
  const dist = await followDist(resolve(distDir), { cacheBytes }, onSwitch);
  const t = { ...DEFAULT_TIMEOUTS, ...timeouts };
  // MCP at /mcp (M4), outside the API: over the build the API serves now. Bound to loopback (known once listening),
  // it refuses a foreign Origin. Loaded on its first request: the SDK and zod would triple the server's start.
  let loopback = true;
  let mcp: Promise<McpHandler> | undefined;
  const answerMcp = (req: IncomingMessage, res: ServerResponse) =>
    (mcp ??= import("./mcp-handler.ts").then(({ createMcpHandler }) =>
      createMcpHandler(
        () => dist.current().root,
        () => loopback,
      ),
    )).then((handler) => handler.handle(req, res));
  // Without a Host header Node would answer a bare 400 itself; the route table answers instead.
  const server: Server = createServer(
    {
      requireHostHeader: false,
      headersTimeout: t.headers,
      requestTimeout: t.request,
      keepAliveTimeout: t.keepAlive,
      // how often the timeouts above are checked: by default every 30 s, which would let idle sockets pile up
      connectionsCheckingInterval: Math.min(1_000, t.headers),
    },
    (req, res) => (isMcpTarget(req.url ?? "") ? void answerMcp(req, res) : dist.current().handle(req, res)),
  );
  // Malformed or oversized requests get a JSON error body, never Node's bare 400/431; one response per request.
  // Node's parser rejects unknown method tokens (FOO, get) before the handler: they are still P6's 405.
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    const code = err.code ?? "";
    // A response already went out on this connection: a second one would answer a request never made.
    if (!socket.writable || code === "ECONNRESET" || inFlight(socket)?.headersSent) return socket.destroy();
    // A client too slow to send its request is dropped, as nginx drops it.
    if (code === "ERR_HTTP_REQUEST_TIMEOUT" || code === "HPE_HEADER_TIMEOUT") return socket.destroy();
    const handler = dist.current();
    const response = handler.errorResponse(
      FRAMING_ERRORS.has(code) ? "bad_request" : code === "HPE_INVALID_METHOD" ? "method_not_allowed" : "not_found",
    );
    const isHead = (err as { rawPacket?: Buffer }).rawPacket?.toString("latin1", 0, 5) === "HEAD "; // P4: no body
    writeRaw(socket, response, !isHead);
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolveListen();
    });
  }).catch((e) => {
    dist.close();
    throw e;
  });
  const address = server.address() as AddressInfo;
  loopback = isLoopbackAddress(address.address);
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    basePath: dist.current().table.basePath,
    root: () => dist.current().root,
    reload: async (force = false) => void (await dist.refresh(force)),
    close: () =>
      new Promise((resolveClose) => {
        dist.close();
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
