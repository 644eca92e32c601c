// Requests sent byte for byte over a socket: fetch would normalise `..`, `%2e`, backslashes and bad escapes away.
import { connect } from "node:net";

export interface RawReply {
  /** undefined when the host closed the connection without an HTTP response */
  status?: number;
  headers: Record<string, string>;
  body: Buffer;
  /** every byte received */
  raw: Buffer;
}

/** Sends `GET target HTTP/1.1` (or another method) with Host and Connection: close, and reads until the host closes. */
export function rawRequest(
  origin: string,
  target: string,
  {
    method = "GET",
    headers = {},
    timeoutMs = 5000,
  }: { method?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RawReply> {
  const { host } = new URL(origin);
  const head = [
    `${method} ${target} HTTP/1.1`,
    `Host: ${host}`,
    "Connection: close",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return rawSend(origin, Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), { timeoutMs, head: method === "HEAD" });
}

export function rawSend(origin: string, bytes: Buffer, { timeoutMs = 5000, head = false } = {}): Promise<RawReply> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks), head));
    };
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", finish);
    // a host may reset the connection of a request it refuses (e.g. a huge request line): what arrived counts
    socket.on("error", finish);
    socket.on("close", finish);
    socket.write(bytes, () => {});
  });
}

function parseResponse(raw: Buffer, head: boolean): RawReply {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return { headers: {}, body: Buffer.alloc(0), raw };
  const [statusLine = "", ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let body = raw.subarray(end + 4);
  if (!head && headers["transfer-encoding"]?.toLowerCase() === "chunked") body = dechunk(body);
  else if (!head && headers["content-length"] !== undefined) body = body.subarray(0, Number(headers["content-length"]));
  return { status: Number.isNaN(status) ? undefined : status, headers, body, raw };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
