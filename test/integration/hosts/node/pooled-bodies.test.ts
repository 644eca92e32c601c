// Bodies read once go back to a pool after their response (body-pool.ts): no response may ever carry another's bytes,
// even when pipelined requests for files nobody caches arrive in one packet.
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../../scripts/hosts/node/server/start-server.ts";
import { builtSite } from "../../../helpers/build/built-site.ts";

/** Sends `targets` pipelined in one write; resolves with the raw bytes until the server closes. */
function pipelined(origin: string, targets: string[]): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (received += c));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
    const last = targets.length - 1;
    socket.write(
      targets
        .map((t, i) => `GET ${t} HTTP/1.1\r\nHost: x\r\n${i === last ? "Connection: close\r\n" : ""}\r\n`)
        .join(""),
    );
  });
}

describe("pooled bodies", () => {
  const site = builtSite();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ distDir: site.dist, port: 0 });
  });
  afterAll(() => server?.close());

  it("pipelined requests for files not cached yet each get their own body, byte for byte", async () => {
    const dist = site.dist;
    // every tool, each asked for twice in the same packet: the first read goes back to the pool, the second is kept
    const slugs = readdirSync(join(dist, "v1/software"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -5));
    expect(slugs.length).toBeGreaterThan(2);
    const files = slugs
      .flatMap((slug) => [slug, slug])
      .map((slug) => ({ target: `${server.basePath}/software/${slug}`, file: `v1/software/${slug}.json` }));
    const raw = await pipelined(
      server.url,
      files.map((f) => f.target),
    );
    const bodies = raw
      .split(/HTTP\/1\.1 \d{3} [^\r]*\r\n/)
      .slice(1)
      .map((r) => r.slice(r.indexOf("\r\n\r\n") + 4));
    expect(bodies).toEqual(files.map((f) => readFileSync(join(dist, f.file), "utf8")));
  });
});
