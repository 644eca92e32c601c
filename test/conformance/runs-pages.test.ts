// L2 on the suite's catalog: the list pages the page tree holds are answered byte for byte by each host that serves
// the same catalog built with --layout runs (hosts.ts `layout`), with the ETag every host sends for those bytes
// (etag-node.ts, as the Node server) and their length. Every page of limits 1, 20 and 100, every first and last page,
// and a seeded sixteenth of the others (CONFORMANCE_PAGES=all asks them all): every page of every limit is the
// benchmark's check at 1,000 tools, and the tiny fixture's in the hosts' own tests; here it would take a minute.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { etagOf } from "../../scripts/api/etag-node.ts";
import { distOf } from "../helpers/conformance/for-each-host.ts";
import { hosts, type RunningHost, selectedHosts } from "../helpers/conformance/hosts.ts";
import { type PageFile, pageFiles, rawClient } from "../helpers/hosts/page-tree.ts";
import { seeded } from "../helpers/random/seeded.ts";

/** The pages asked: see the file's first comment. */
function samplePages(pages: PageFile[]): PageFile[] {
  if (process.env.CONFORMANCE_PAGES === "all") return pages;
  const random = seeded(48);
  const last = new Map<string, number>(); // list and limit → its last offset
  const at = pages.map(({ target }) => {
    const q = new URLSearchParams(target.slice(target.indexOf("?") + 1));
    const key = `${q.get("category")} ${q.get("limit")}`;
    const offset = Number(q.get("offset"));
    last.set(key, Math.max(last.get(key) ?? 0, offset));
    return { key, limit: Number(q.get("limit")), offset };
  });
  return pages.filter((_, i) => {
    const { key, limit, offset } = at[i]!;
    return [1, 20, 100].includes(limit) || offset === 0 || offset === last.get(key) || random() < 1 / 16;
  });
}

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
    "L2 the page tree's pages (limits 1, 20, 100, first and last, a seeded sixteenth): bytes, ETag, length",
    async () => {
      const distDir = inject("distDir");
      const basePath = JSON.parse(await readFile(join(distDir, "routes.json"), "utf8")).basePath as string;
      const pages = samplePages(await pageFiles(distDir, basePath));
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
