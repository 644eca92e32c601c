// Bytes on the wire between a client and a host: a TCP proxy on 127.0.0.1 that counts every byte each way (status
// lines, headers, chunk framing and bodies as sent, compressed when the host compressed them). The landscape step puts
// it in front of the Node server the mirror copies from, because the mirror reports decoded body bytes only.
import { connect, createServer, type Socket } from "node:net";

export interface WireCount {
  /** bytes host → client (answers) */
  down: number;
  /** bytes client → host (requests) */
  up: number;
  connections: number;
}

export interface WireProxy {
  origin: string;
  /** the counts since the last reset, and a reset */
  take(): WireCount;
  close(): Promise<void>;
}

export async function startWireProxy(upstream: string): Promise<WireProxy> {
  const { hostname, port } = new URL(upstream);
  let count: WireCount = { down: 0, up: 0, connections: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    count.connections++;
    const host = connect(Number(port), hostname);
    sockets.add(client).add(host);
    client.on("data", (c: Buffer) => (count.up += c.length));
    host.on("data", (c: Buffer) => (count.down += c.length));
    client.pipe(host);
    host.pipe(client);
    const end = () => {
      client.destroy();
      host.destroy();
      sockets.delete(client);
      sockets.delete(host);
    };
    client.on("error", end).on("close", end);
    host.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the wire proxy has no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    take() {
      const taken = count;
      count = { down: 0, up: 0, connections: 0 };
      return taken;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
