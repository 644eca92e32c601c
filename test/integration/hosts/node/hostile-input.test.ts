// Hostile input on the Node server, over real sockets: the cases every host answers the same way
// (test/helpers/hosts/hostile-input.ts; nginx: test/integration/hosts/nginx/hostile-input.test.ts), and the Node
// server's own: out of file descriptors, it never turns an existing file into a 404; unique long targets do not grow
// its memory for good.

import { readFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { builtSite } from "../../../helpers/build/built-site.ts";
import { describeHostileInput, HEADER_TIMEOUT_S, IDLE_CONNECTIONS } from "../../../helpers/hosts/hostile-input.ts";
import { spawnWithLimit } from "../../../helpers/hosts/node/children.ts";

const site = builtSite();

describeHostileInput("node", async () => {
  const child = spawnWithLimit(
    "test/helpers/hosts/node/serve-child.ts",
    [site.dist, String(HEADER_TIMEOUT_S * 1000)],
    4 * IDLE_CONNECTIONS,
  );
  const [, origin] = await child.line(/^listening (\S+)$/);
  return { origin: origin!, stop: () => child.stop() };
});

describe("hostile input: node out of file descriptors", () => {
  /** Sends one request on an open socket and reads one response (bodies here are small: one read is enough). */
  const ask = (socket: Socket, target: string) =>
    new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      let data = "";
      const onData = (c: Buffer) => {
        data += c.toString("latin1");
        const end = data.indexOf("\r\n\r\n");
        const length = Number(/content-length: (\d+)/i.exec(data)?.[1] ?? NaN);
        if (end >= 0 && data.length >= end + 4 + length) {
          socket.off("data", onData);
          resolve({ status: Number(data.slice(9, 12)), headers: data.slice(0, end), body: data.slice(end + 4) });
        }
      };
      socket.on("data", onData);
      socket.once("close", () => reject(new Error(`closed before answering ${target}`)));
      socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
    });

  it("never turns an existing file into a 404: it retries, then answers a JSON 503 with Retry-After", async () => {
    const server = spawnWithLimit("test/helpers/hosts/node/serve-child.ts", [site.dist], 128);
    const sockets: Socket[] = [];
    try {
      const [, origin] = await server.line(/^listening (\S+)$/);
      const { hostname, port } = new URL(origin!);
      // Connect until the server runs out of descriptors: those it could not take, it closes at once.
      for (let i = 0; i < 200; i++) {
        const socket = connect({ host: hostname, port: Number(port) });
        socket.on("error", () => {});
        sockets.push(socket);
      }
      await new Promise((r) => setTimeout(r, 1_000));
      const open = sockets.filter((s) => !s.destroyed && s.readyState === "open");
      expect(open.length, "the server took some connections and refused the rest").toBeGreaterThan(20);
      expect(open.length).toBeLessThan(200);
      // Every page of the list is a file that exists and is not cached yet.
      const starved = await Promise.all(open.slice(0, 10).map((s, i) => ask(s, `/v1/software?limit=${i + 1}`)));
      for (const reply of starved) {
        expect([200, 503]).toContain(reply.status);
        if (reply.status === 503) {
          expect(reply.headers).toMatch(/\r\nRetry-After: \d+/i);
          expect(reply.headers).toMatch(/\r\nContent-Type: application\/json; charset=utf-8/i);
          expect(JSON.parse(reply.body).error.code).toBe("service_unavailable");
        }
      }
      expect(
        starved.some((r) => r.status === 503),
        "the descriptors really ran out",
      ).toBe(true);
      // Once descriptors are free again, the same files are served.
      for (const s of open.slice(20)) s.destroy();
      await new Promise((r) => setTimeout(r, 300));
      const recovered = await Promise.all(open.slice(0, 10).map((s, i) => ask(s, `/v1/software?limit=${i + 1}`)));
      expect(recovered.map((r) => r.status)).toEqual(Array(10).fill(200));
    } finally {
      for (const s of sockets) s.destroy();
      await server.stop();
    }
  });
});

describe("hostile input: node memory under unique long targets", () => {
  const rssMb = async (pid: number) =>
    Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

  it("12,000 requests with unique 15 KB targets (180 MB of URLs) do not grow its memory for good", async () => {
    const server = spawnWithLimit("test/helpers/hosts/node/serve-child.ts", [site.dist], 1024);
    try {
      const [, origin] = await server.line(/^listening (\S+)$/);
      const { hostname, port } = new URL(origin!);
      const pid = server.process.pid!;
      /** `count` requests over `lanes` keep-alive connections, each target unique and about 15 KB long */
      const flood = async (count: number, from: number) => {
        const lanes = 8;
        await Promise.all(
          Array.from(
            { length: lanes },
            (_, lane) =>
              new Promise<void>((resolve, reject) => {
                const socket = connect({ host: hostname, port: Number(port) });
                let sent = 0;
                let answered = 0;
                let buffered = "";
                const send = () => {
                  const n = from + lane + sent * lanes;
                  sent++;
                  socket.write(
                    `GET /v1/software/${"a".repeat(15_000)}${n.toString(36).replace(/[0-9]/g, (d) => "bcdefghijk"[Number(d)]!)} HTTP/1.1\r\nHost: x\r\n\r\n`,
                  );
                };
                socket.on("data", (c: Buffer) => {
                  buffered += c.toString("latin1");
                  // each answer is the same software_not_found response: count its status lines
                  for (let at = buffered.indexOf("HTTP/1.1 404"); at >= 0; at = buffered.indexOf("HTTP/1.1 404")) {
                    buffered = buffered.slice(at + 12);
                    answered++;
                    if (answered === count / lanes) return socket.end(resolve);
                    send();
                  }
                });
                socket.on("error", reject);
                socket.on("connect", send);
              }),
          ),
        );
      };
      await flood(2_000, 0);
      const before = await rssMb(pid);
      await flood(12_000, 2_000);
      const after = await rssMb(pid);
      expect(after - before, `RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`).toBeLessThan(64);
      expect((await fetch(`${origin}/v1/software/quill`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
