// E1: the whole catalog in one body. E2: the hash tree names every body a full host serves by URL, each with the
// SHA-256 and size of what the host answers for it; E3's If-None-Match on the root.
import { createHash } from "node:crypto";
import { expect } from "vitest";
import { suiteContext } from "../helpers/conformance/context.ts";
import { expectOk } from "../helpers/conformance/expect-response.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import type { Client } from "../helpers/conformance/http.ts";
import { mapPool } from "../helpers/conformance/pool.ts";
import { wordsOf } from "../helpers/conformance/search-oracle.ts";

const { catalog } = suiteContext();
const base = catalog.basePath;

interface Hashed {
  sha256: string;
  size: number;
}
interface Tree {
  root: { data: Record<string, Hashed>; meta: { shards: number; targets: number } };
  targets: Map<string, Hashed>;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function bytesOf(client: Client, target: string): Promise<Uint8Array> {
  const reply = await client.get(target);
  expect(reply.status, target).toBe(200);
  return new TextEncoder().encode(reply.text);
}

/** Every target E2 names, from the content files alone. */
function expectedTargets(): string[] {
  const targets = [`${base}/categories`, `${base}/openapi.json`, `${base}/export/catalog.json`];
  for (const t of catalog.tools) targets.push(`${base}/software/${t.slug}`);
  for (const c of catalog.categories) if (c.members.length > 0) targets.push(`${base}/best/${c.slug}`);
  const prefixes = new Set<string>();
  for (const w of catalog.tools.flatMap((t) => wordsOf(t.name)))
    for (let n = 1; n <= Math.min(32, w.length); n++) prefixes.add(w.slice(0, n));
  for (const q of prefixes) targets.push(`${base}/search?q=${q}`);
  const lists: [string, number][] = [
    ["", catalog.tools.length],
    ...catalog.categories.map((c): [string, number] => [`&category=${c.slug}`, c.members.length]),
  ];
  for (const [filter, total] of lists)
    for (let limit = 1; limit <= 100; limit++)
      for (let offset = 0; offset <= total; offset++)
        targets.push(`${base}/software?limit=${limit}&offset=${offset}${filter}`);
  return targets.sort();
}

async function readTree(client: Client): Promise<Tree> {
  const root = expectOk<Tree["root"]>(await client.get(`${base}/sync/index.json`));
  const targets = new Map<string, Hashed>();
  await mapPool(Object.entries(root.data), 8, async ([name, listed]) => {
    const bytes = await bytesOf(client, `${base}/sync/${name}.json`);
    expect({ sha256: sha256(bytes), size: bytes.byteLength }, `shard ${name}: hash and size as the root lists`).toEqual(
      listed,
    );
    const shard = JSON.parse(new TextDecoder().decode(bytes)) as { data: Record<string, Hashed>; meta: object };
    expect(shard.meta, name).toEqual({ shard: name, targets: Object.keys(shard.data).length });
    for (const [target, hashed] of Object.entries(shard.data)) {
      expect(targets.has(target), `${target} is in one shard only`).toBe(false);
      targets.set(target, hashed);
    }
  });
  expect(root.meta).toEqual({ shards: Object.keys(root.data).length, targets: targets.size });
  return { root, targets };
}

forEachHost(({ test, client }) => {
  test("E1 the export holds every tool's detail with its categories and every category, by name", async () => {
    const body = expectOk<{
      data: { software: { slug: string; categories: string[] }[]; categories: { slug: string; toolCount: number }[] };
      meta: { softwareCount: number; categoryCount: number };
    }>(await client().get(`${base}/export/catalog.json`));
    expect(body.data.software.map((t) => t.slug)).toEqual(catalog.tools.map((t) => t.slug));
    for (const t of body.data.software) {
      const sorted = catalog.categories.filter((c) => c.members.includes(t.slug)).map((c) => c.slug);
      expect(t.categories, t.slug).toEqual(sorted);
    }
    expect(body.data.categories.map((c) => [c.slug, c.toolCount])).toEqual(
      catalog.categories.map((c) => [c.slug, c.members.length]),
    );
    expect(body.meta).toEqual({ softwareCount: catalog.tools.length, categoryCount: catalog.categories.length });
  });

  test("E2 the hash tree names exactly the bodies served by URL, each with the hash and size the host answers", async () => {
    const tree = await readTree(client());
    expect([...tree.targets.keys()].sort()).toEqual(expectedTargets());
    // Every body but the pages, and every 37th page: what the host answers is what the tree says.
    const pages = [...tree.targets.keys()].filter((t) => t.startsWith(`${base}/software?`));
    const checked = [...tree.targets.keys()].filter((t) => !t.startsWith(`${base}/software?`));
    checked.push(...pages.filter((_, i) => i % 37 === 0));
    await mapPool(checked, 8, async (target) => {
      const bytes = await bytesOf(client(), target);
      expect({ sha256: sha256(bytes), size: bytes.byteLength }, target).toEqual(tree.targets.get(target));
    });
  });

  test("E3 the root answers 304 to its own ETag, and a shard no root names is 404 not_found", async () => {
    const first = await client().get(`${base}/sync/index.json`);
    const again = await client().get(`${base}/sync/index.json`, { "if-none-match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
    const missing = await client().get(`${base}/sync/no-such-shard.json`);
    expect(missing.status).toBe(404);
  });
});
