// A TCP relay in front of local workerd for the conformance suite. workerd (miniflare 4.20260426) ignores a
// client's `Connection: close`: it answers, then keeps the socket open, so a raw-socket test reading until the
// close waits forever. The relay forwards every byte unchanged both ways and only ends the client socket once the
// response to a `Connection: close` request is complete. Local only: Cloudflare's edge terminates HTTP itself.
import { type AddressInfo, connect, createServer, type Socket } from "node:net";

interface Pending {
  head: boolean;
  close: boolean;
}

/** Bytes still to come of a response body, or "chunked", or "close" (until the server closes). */
type Remaining = number | "chunked" | "close";

export interface Relay {
  origin: string;
  close(): Promise<void>;
}

export async function startClosingRelay(upstream: string): Promise<Relay> {
  const { hostname, port } = new URL(upstream);
  const sockets = new Set<Socket>();
  // No Nagle on either leg: a relayed request or answer waited ~30 ms for the peer's delayed ACK before it went on.
  const server = createServer({ noDelay: true }, (client) => {
    const server = connect({ host: hostname, port: Number(port), noDelay: true });
    sockets.add(client).add(server);
    const pending: Pending[] = [];
    let requestHead = "";
    client.on("data", (chunk: Buffer) => {
      // Request heads only (the suite sends no request bodies): method and Connection header, in order.
      requestHead += chunk.toString("latin1");
      for (let end = requestHead.indexOf("\r\n\r\n"); end >= 0; end = requestHead.indexOf("\r\n\r\n")) {
        const head = requestHead.slice(0, end);
        requestHead = requestHead.slice(end + 4);
        pending.push({ head: head.startsWith("HEAD "), close: /\r\nconnection:[ \t]*close/i.test(head) });
      }
      server.write(chunk);
    });
    let buffer = Buffer.alloc(0);
    let remaining: Remaining | undefined; // undefined: reading a response head
    const finishResponse = () => {
      const request = pending.shift();
      remaining = undefined;
      if (request?.close) {
        client.end();
        server.destroy();
      }
    };
    server.on("data", (chunk: Buffer) => {
      client.write(chunk);
      buffer = Buffer.concat([buffer, chunk]);
      for (let progress = true; progress && !client.writableEnded; ) {
        progress = false;
        if (remaining === undefined) {
          const end = buffer.indexOf("\r\n\r\n");
          if (end < 0) return;
          const head = buffer.subarray(0, end).toString("latin1");
          buffer = buffer.subarray(end + 4);
          const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
          const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head)?.[1];
          if (pending[0]?.head || status === 204 || status === 304 || (status >= 100 && status < 200)) remaining = 0;
          else if (/\r\ntransfer-encoding:[ \t]*chunked/i.test(head)) remaining = "chunked";
          else remaining = length !== undefined ? Number(length) : "close";
          progress = true;
        } else if (typeof remaining === "number") {
          const take = Math.min(remaining, buffer.length);
          buffer = buffer.subarray(take);
          remaining -= take;
          if (remaining === 0) {
            finishResponse();
            progress = true;
          }
        } else if (remaining === "chunked") {
          // Chunks: size line, data, CRLF; the last chunk has size 0 and ends with an empty line (no trailers sent).
          const line = buffer.indexOf("\r\n");
          if (line < 0) return;
          const size = parseInt(buffer.subarray(0, line).toString("latin1"), 16);
          const need = size === 0 ? line + 4 : line + 2 + size + 2;
          if (buffer.length < need) return;
          buffer = buffer.subarray(need);
          if (size === 0) finishResponse();
          progress = true;
        }
      }
    });
    const done = () => {
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    server.on("end", () => client.end());
    client.on("end", () => server.end());
    server.on("error", done);
    client.on("error", done);
    server.on("close", () => sockets.delete(server));
    client.on("close", () => sockets.delete(client));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
