// L2 on the suite's catalog: every list page the page tree holds is answered byte for byte by each host that serves
// the same catalog built with --layout runs (hosts.ts `layout`), with the ETag every host sends for those bytes
// (etag-node.ts, as the Node server) and their length.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { etagOf } from "../../scripts/api/etag-node.ts";
import { distOf } from "../helpers/conformance/for-each-host.ts";
import { hosts, type RunningHost, selectedHosts } from "../helpers/conformance/hosts.ts";
import { pageFiles, rawClient } from "../helpers/hosts/page-tree.ts";

const selected = selectedHosts();
const runsHosts = hosts.filter((h) => h.layout === "runs" && (!selected || selected.includes(h.name)));

// CONFORMANCE_HOSTS may name none (the conformance-r2 project): a file without tests fails
if (runsHosts.length === 0) it.skip("L2 (no selected host serves a runs build)", () => {});

describe.each(runsHosts)("host $name, from the runs build", (host) => {
  const unavailable = host.unavailable();
  let running: RunningHost | undefined;
  beforeAll(async () => {
    if (unavailable) return;
    const origin = inject("hostOrigins")?.[host.name];
    running = origin ? { origin, stop: async () => {} } : await host.start(distOf(host));
  });
  afterAll(() => running?.stop());

  it.skipIf(unavailable !== undefined)(
    "L2 every page of the page tree: its bytes, its ETag and its length, from the runs",
    async () => {
      const distDir = inject("distDir");
      const basePath = JSON.parse(await readFile(join(distDir, "routes.json"), "utf8")).basePath as string;
      const pages = await pageFiles(distDir, basePath);
      expect(pages.length).toBeGreaterThan(0);
      const client = rawClient(running!.origin);
      let next = 0;
      try {
        await Promise.all(
          Array.from({ length: 6 }, async () => {
            while (next < pages.length) {
              const { file, target } = pages[next++]!;
              const [bytes, reply] = await Promise.all([readFile(join(distDir, file)), client.send(target)]);
              expect(reply.status, target).toBe(200);
              expect(reply.body.equals(bytes), target).toBe(true);
              expect(reply.headers.etag, target).toBe(etagOf(bytes));
              expect(reply.headers["content-length"], target).toBe(String(bytes.byteLength));
            }
          }),
        );
      } finally {
        client.close();
      }
    },
    240_000,
  );
});
