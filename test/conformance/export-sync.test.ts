// E1: the whole catalog in one body. E2: the hash tree (format 2) names every body a full host serves by URL but the
// list pages, each with the SHA-256 and size of what the host answers for it, and every list with its pieces, each
// fetched at its own URL and checked by its id: a list's pieces joined are the list, the export's parts its body.
// E3's If-None-Match on the root.
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
type PieceRow = [id: string, items: number, size: number];
interface Entry extends Hashed {
  /** a list's entry */
  category?: string | null;
  total?: number;
  pieces?: PieceRow[];
  /** a body made of pieces (the export) */
  parts?: ({ text: string } | { pieces: PieceRow[] })[];
}
interface Tree {
  root: { data: Record<string, Hashed>; meta: { format: number; shards: number; targets: number; pieces: number } };
  targets: Map<string, Entry>;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function bytesOf(client: Client, target: string): Promise<Uint8Array> {
  const reply = await client.get(target);
  expect(reply.status, target).toBe(200);
  return new TextEncoder().encode(reply.text);
}

/** Every list of GET /software: its target in the tree, its meta.category and its tools in O1 order. */
function expectedLists(): { target: string; category: string | null; slugs: string[] }[] {
  return [
    { target: `${base}/software`, category: null, slugs: catalog.tools.map((t) => t.slug) },
    ...catalog.categories.map((c) => ({
      target: `${base}/software?category=${c.slug}`,
      category: c.slug,
      slugs: c.members,
    })),
  ];
}

/** Every target E2 names, from the content files alone: every body served by URL but the list pages, every list. */
function expectedTargets(): string[] {
  const targets = [`${base}/categories`, `${base}/openapi.json`, `${base}/export/catalog.json`];
  for (const t of catalog.tools) targets.push(`${base}/software/${t.slug}`);
  for (const c of catalog.categories) if (c.members.length > 0) targets.push(`${base}/best/${c.slug}`);
  const prefixes = new Set<string>();
  for (const w of catalog.tools.flatMap((t) => wordsOf(t.name)))
    for (let n = 1; n <= Math.min(32, w.length); n++) prefixes.add(w.slice(0, n));
  for (const q of prefixes) targets.push(`${base}/search?q=${q}`);
  for (const list of expectedLists()) targets.push(list.target);
  return targets.sort();
}

async function readTree(client: Client): Promise<Tree> {
  const root = expectOk<Tree["root"]>(await client.get(`${base}/sync/index.json`));
  const targets = new Map<string, Entry>();
  await mapPool(Object.entries(root.data), 8, async ([name, listed]) => {
    const bytes = await bytesOf(client, `${base}/sync/${name}.json`);
    expect({ sha256: sha256(bytes), size: bytes.byteLength }, `shard ${name}: hash and size as the root lists`).toEqual(
      listed,
    );
    const shard = JSON.parse(new TextDecoder().decode(bytes)) as { data: Record<string, Entry>; meta: object };
    expect(shard.meta, name).toEqual({ format: 2, shard: name, targets: Object.keys(shard.data).length });
    for (const [target, entry] of Object.entries(shard.data)) {
      expect(targets.has(target), `${target} is in one shard only`).toBe(false);
      targets.set(target, entry);
    }
  });
  const pieces = new Set<string>();
  for (const entry of targets.values())
    for (const [id] of [
      ...(entry.pieces ?? []),
      ...(entry.parts ?? []).flatMap((p) => ("pieces" in p ? p.pieces : [])),
    ])
      pieces.add(id);
  expect(root.meta).toEqual({
    format: 2,
    shards: Object.keys(root.data).length,
    targets: targets.size,
    pieces: pieces.size,
  });
  return { root, targets };
}

/** A piece fetched at its own URL, checked by its name (its id is the SHA-256 of its body), and its inner bytes. */
async function pieceOf(client: Client, [id, items, size]: PieceRow, known: Map<string, string>): Promise<string> {
  const kept = known.get(id);
  if (kept !== undefined) return kept;
  const bytes = await bytesOf(client, `${base}/sync/pieces/${id}.json`);
  expect({ sha256: sha256(bytes), size: bytes.byteLength }, `piece ${id}`).toEqual({ sha256: id, size });
  const text = new TextDecoder().decode(bytes);
  expect((JSON.parse(text) as unknown[]).length, `piece ${id}: items`).toBe(items);
  known.set(id, text.slice(1, -1));
  return text.slice(1, -1);
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

  test("E2 the hash tree names exactly the bodies served by URL and the lists, each body with the hash and size the host answers", async () => {
    const tree = await readTree(client());
    expect([...tree.targets.keys()].sort()).toEqual(expectedTargets());
    const lists = new Set(expectedLists().map((l) => l.target));
    const bodies = [...tree.targets.keys()].filter((t) => !lists.has(t));
    await mapPool(bodies, 8, async (target) => {
      const bytes = await bytesOf(client(), target);
      const { sha256: hash, size } = tree.targets.get(target)!;
      expect({ sha256: sha256(bytes), size: bytes.byteLength }, target).toEqual({ sha256: hash, size });
    });
  });

  test("E2 each list's pieces, fetched by URL and checked by their ids, joined are the list", async () => {
    const tree = await readTree(client());
    const known = new Map<string, string>();
    for (const list of expectedLists()) {
      const entry = tree.targets.get(list.target)!;
      expect({ category: entry.category, total: entry.total }, list.target).toEqual({
        category: list.category,
        total: list.slugs.length,
      });
      expect(
        entry.pieces!.reduce((n, [, items]) => n + items, 0),
        `${list.target}: items`,
      ).toBe(list.slugs.length);
      const texts = await mapPool(entry.pieces!, 8, (row) => pieceOf(client(), row, known));
      const run = new TextEncoder().encode(texts.join(","));
      expect({ sha256: sha256(run), size: run.byteLength }, `${list.target}: its run`).toEqual({
        sha256: entry.sha256,
        size: entry.size,
      });
      const items = JSON.parse(`[${texts.join(",")}]`) as { slug: string }[];
      expect(
        items.map((i) => i.slug),
        list.target,
      ).toEqual(list.slugs);
    }
  });

  test("E2 the export's parts, its pieces fetched by URL and checked by their ids, join to the export's body", async () => {
    const tree = await readTree(client());
    const entry = tree.targets.get(`${base}/export/catalog.json`)!;
    const known = new Map<string, string>();
    let body = "";
    for (const part of entry.parts!)
      body +=
        "text" in part ? part.text : (await mapPool(part.pieces, 8, (row) => pieceOf(client(), row, known))).join(",");
    expect(body).toBe((await client().get(`${base}/export/catalog.json`)).text);
    expect(sha256(new TextEncoder().encode(body))).toBe(entry.sha256);
  });

  test("E3 the root answers 304 to its own ETag; a shard or a piece no tree names is 404 not_found", async () => {
    const first = await client().get(`${base}/sync/index.json`);
    const again = await client().get(`${base}/sync/index.json`, { "if-none-match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
    const missing = await client().get(`${base}/sync/no-such-shard.json`);
    expect(missing.status).toBe(404);
    for (const piece of [`${"0".repeat(64)}.json`, `${"A".repeat(64)}.json`, "pieces.json", `${"0".repeat(64)}`]) {
      const reply = await client().get(`${base}/sync/pieces/${piece}`);
      expect(reply.status, piece).toBe(404);
      expect((JSON.parse(reply.text) as { error: { code: string } }).error.code, piece).toBe("not_found");
    }
  });
});
