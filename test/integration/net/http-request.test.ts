// One HTTP request's deadlines and failures in words, against a local server that misbehaves in each phase: no
// answer, an answer that stalls halfway, a body the server stops reading, a cut answer, a reset, a refused
// connection; and what the mirror asks of it (a compressed answer decoded, a redirect followed).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequest, TransportError } from "../../../scripts/net/http-request.ts";

const deadlines = { connectMs: 1_000, answerMs: 200, stallMs: 200 };
let server: Server;
let origin: string;
const sockets = new Set<Socket>();
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "/ok": (req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "Content-Type": "text/plain" }).end("fine"));
  },
  "/silent": (req) => req.resume(),
  "/half": (req, res) => {
    req.resume();
    res.writeHead(200, { "Content-Length": "10" }).write("abcde");
  },
  "/cut": (req, res) => {
    req.resume();
    res.writeHead(200, { "Content-Length": "10" }).write("abcde");
    setTimeout(() => res.socket?.destroy(), 10);
  },
  "/reset": (req) => req.socket.destroy(),
  // reads nothing of the body: the client's writes fill the socket's buffers and stop
  "/deaf": (req) => {
    req.pause();
    req.socket.pause();
  },
  "/gzip": (req, res) => {
    req.resume();
    const accepts = /gzip/.test(req.headers["accept-encoding"] ?? "");
    res.writeHead(200, accepts ? { "Content-Encoding": "gzip" } : {}).end(accepts ? gzipSync("unzipped") : "plain");
  },
  "/moved": (req, res) => {
    req.resume();
    res.writeHead(301, { Location: "/ok" }).end();
  },
};

beforeAll(async () => {
  server = createServer((req, res) => routes[req.url!]?.(req, res));
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((ok) => server.close(ok));
});

const get = (path: string, options = {}) =>
  httpRequest({ method: "GET", url: `${origin}${path}`, headers: {} }, deadlines, options);

/** The failure of a request, and how long it took to come. */
async function failure(request: Promise<unknown>): Promise<{ error: Error; ms: number }> {
  const started = performance.now();
  const error = await request.then(
    () => new Error("it succeeded"),
    (e: Error) => e,
  );
  return { error, ms: performance.now() - started };
}

describe("httpRequest", () => {
  it("answers with status, headers and the whole body", async () => {
    const res = await get("/ok");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(res.body.toString()).toBe("fine");
  });

  it("gives up on an answer that never comes at the answer deadline", async () => {
    const { error, ms } = await failure(get("/silent"));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toBe("no answer within 0.20 s of the request");
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(2_000);
  });

  it("gives up on an answer that stalls halfway at the stall deadline", async () => {
    const { error, ms } = await failure(get("/half"));
    expect(error.message).toBe("no progress for 0.20 s while the answer arrived");
    expect(ms).toBeLessThan(2_000);
  });

  it("gives up on a body the server stops reading at the stall deadline", async () => {
    const body = new Uint8Array(64 * 1024 * 1024);
    const { error, ms } = await failure(
      httpRequest({ method: "PUT", url: `${origin}/deaf`, headers: {}, body }, deadlines),
    );
    expect(error.message).toBe("no progress for 0.20 s while sending the body");
    expect(ms).toBeLessThan(5_000);
  });

  it("says an answer was cut, a connection reset or refused, in words", async () => {
    expect((await failure(get("/cut"))).error.message).toBe("the answer (200) was cut after 5 of 10 bytes");
    expect((await failure(get("/reset"))).error.message).toMatch(/^connection (reset|closed) before the answer/);
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, "127.0.0.1", ok));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((ok) => closed.close(ok));
    const refused = await failure(
      httpRequest({ method: "GET", url: `http://127.0.0.1:${port}/`, headers: {} }, deadlines),
    );
    expect(refused.error.message).toBe("connection refused while connecting (ECONNREFUSED)");
  });

  it("decodes a gzip answer and follows a redirect when asked (the mirror)", async () => {
    expect((await get("/gzip")).body.toString()).toBe("plain");
    expect((await get("/gzip", { decode: true })).body.toString()).toBe("unzipped");
    expect((await get("/moved")).status).toBe(301);
    expect((await get("/moved", { redirects: 5 })).body.toString()).toBe("fine");
  });
});
