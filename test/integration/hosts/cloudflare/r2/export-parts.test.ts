// The export over R2 is stored in its parts and streamed from them (never held whole), through the Worker module in
// Node over an in-memory bucket: byte for byte the build's body with its ETag and length from the manifest; HEAD and
// 304 read no piece; a piece that cannot be read once the status line is sent cuts the stream (a client never takes a
// cut body for a whole one, H7) and logs one line; a piece is sent only once the bucket lacks it. The find index (a
// build record the Worker's MCP tools read) is stored in parts the same way.
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { errorBodies } from "../../../../../scripts/api/contract/error-bodies.ts";
import { loadRouteTable } from "../../../../../scripts/api/load-route-table.ts";
import { build } from "../../../../../scripts/build.ts";
import { writeGeneratedCatalog } from "../../../../../scripts/content/generate.ts";
import { readLive, readShard } from "../../../../../scripts/hosts/cloudflare/r2/bucket.ts";
import { uploadToR2 } from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { packKey, partedOf, shardFor } from "../../../../../scripts/hosts/cloudflare/worker/r2-layout.ts";
import { createWorker } from "../../../../../scripts/hosts/cloudflare/worker/worker.ts";
import {
  FIND_INDEX_PARTS_FILE,
  FIND_PIECES_DIR,
  type FindIndexParts,
} from "../../../../../scripts/render/find-index.ts";
import { tempDir } from "../../../../helpers/fs/dirs.ts";
import { memoryBucket } from "../../../../helpers/r2/memory-bucket.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
let content: string;
let dist: string;
beforeAll(async () => {
  dir = await tempDir("r2-export-parts-");
  content = join(dir.path, "content");
  dist = join(dir.path, "dist");
  await writeGeneratedCatalog(content, { tools: 400, categories: 6, seed: 7 });
  await build({ contentDir: content, outDir: dist, layout: "runs" });
}, 120_000);
afterAll(() => dir?.remove());

const EXPORT = "v1/export/catalog.json";

it("the export streams from its parts; an edit sends one piece; a piece lost after the status line cuts the stream", async () => {
  const bucket = memoryBucket();
  const first = await uploadToR2(dist, bucket.target);
  const table = await loadRouteTable(dist);
  const worker = createWorker(table, errorBodies(table.basePath));
  const env = { BUCKET: bucket.binding, COUNT_R2_READS: "1" };
  const ask = (init?: RequestInit) => worker.fetch(new Request(`https://api.example/${EXPORT}`, init), env);

  const whole = await readFile(join(dist, EXPORT));
  const res = await ask();
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(whole)).toBe(true);
  const etag = res.headers.get("etag")!;
  expect(res.headers.get("content-length")).toBe(String(whole.byteLength));
  // HEAD and a 304 take the ETag and length from the manifest: no piece read
  for (const init of [{ method: "HEAD" }, { headers: { "if-none-match": etag } }]) {
    const answer = await ask(init);
    expect(answer.headers.get("x-r2-read-kinds")).toMatch(/body=0$/);
    expect(answer.headers.get("content-length") ?? String(whole.byteLength)).toBe(String(whole.byteLength));
  }

  // One tool's description edited, the last by name (its piece is the export's last): one new export piece is sent.
  const names = JSON.parse(whole.toString()).data.software.map((t: { slug: string }) => t.slug) as string[];
  const last = names.at(-1)!;
  const file = join(content, "tools", `${last}.json`);
  const tool = JSON.parse(await readFile(file, "utf8"));
  await writeFile(file, JSON.stringify({ ...tool, shortDescription: "A description edited for the export test." }));
  await build({ contentDir: content, outDir: dist, layout: "runs" });
  const second = await uploadToR2(dist, bucket.target);
  expect(second.previous).toBe(first.build);
  const pointer = (await readLive(bucket.target))!.pointer;
  const shard = await readShard(bucket.target, pointer.shards[shardFor(pointer.shards, EXPORT)]![1]);
  const entry = partedOf(shard, EXPORT)!;
  const pieces = entry[3].flatMap((part) => (typeof part === "string" ? [] : part));
  const packs = [...new Set(pieces.map((p) => shard.packs[p[1]]!))];
  expect(packs, "the export's pieces lie in the first upload's pack and the edit's").toHaveLength(2);
  expect(pieces.filter((p) => shard.packs[p[1]] === packs[1]).length, "one export piece was sent again").toBe(1);
  await new Promise((r) => setTimeout(r, 1100)); // the isolate's pointer
  const edited = await readFile(join(dist, EXPORT));
  expect(Buffer.from(await (await ask()).arrayBuffer()).equals(edited)).toBe(true);

  // The edit's pack lost: the first pieces are read before the answer starts, the last after: the stream is cut.
  const lost = packKey(packs[1]!);
  const saved = bucket.objects.get(lost)!;
  bucket.objects.delete(lost);
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const cut = await ask();
    expect(cut.status).toBe(200);
    await expect(cut.arrayBuffer()).rejects.toThrow(/missing from the bucket/);
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(new RegExp(`^${EXPORT}: the stream was cut after \\d+ bytes: ${lost}: missing`)),
    ]);
  } finally {
    logged.mockRestore();
    bucket.objects.set(lost, saved);
  }
  expect(Buffer.from(await (await ask()).arrayBuffer()).equals(edited), "back once the pack is").toBe(true);
}, 120_000);

it("the find index is stored in its parts too: a price edit sends one piece of it, and the parts join to the file", async () => {
  const FIND = "find-index.json";
  const bucket = memoryBucket();
  await uploadToR2(dist, bucket.target);
  const stored = async () => {
    const pointer = (await readLive(bucket.target))!.pointer;
    const shard = await readShard(bucket.target, pointer.shards[shardFor(pointer.shards, FIND)]![1]);
    const entry = partedOf(shard, FIND)!;
    expect(entry, "find-index.json is a parted entry").toBeDefined();
    return { shard, entry, pieces: entry[3].flatMap((part) => (typeof part === "string" ? [] : part)) };
  };
  const before = await stored();
  expect(before.pieces.length, "the index of 400 tools is cut in a few pieces").toBeGreaterThan(1);
  expect(before.entry[2]).toBe((await readFile(join(dist, FIND))).byteLength);

  // The middle tool's paid plans cost more: its row's price changes, no other row.
  const index = JSON.parse(await readFile(join(dist, FIND), "utf8")) as { tools: unknown[] };
  const slugs = JSON.parse(await readFile(join(dist, EXPORT), "utf8")).data.software.map(
    (t: { slug: string }) => t.slug,
  );
  expect(slugs).toHaveLength(index.tools.length);
  const middle = slugs[Math.floor(slugs.length / 2)]!;
  const file = join(content, "tools", `${middle}.json`);
  const tool = JSON.parse(await readFile(file, "utf8"));
  const plans = tool.pricingPlans.map((p: { price: number | null }) => ({
    ...p,
    price: p.price === null ? null : p.price + 1,
  }));
  await writeFile(file, JSON.stringify({ ...tool, pricingPlans: plans }));
  await build({ contentDir: content, outDir: dist, layout: "runs" });
  await uploadToR2(dist, bucket.target);

  const after = await stored();
  const known = new Set(before.pieces.map((p) => p[0]));
  expect(
    after.pieces.filter((p) => !known.has(p[0])),
    "one piece of the index is new",
  ).toHaveLength(1);
  expect(after.pieces).toHaveLength(before.pieces.length);
  const parts = JSON.parse(await readFile(join(dist, FIND_INDEX_PARTS_FILE), "utf8")) as FindIndexParts;
  const joined = parts.parts
    .map((part) =>
      "text" in part
        ? part.text
        : part.pieces
            .map(([id]) => readFileSync(join(dist, FIND_PIECES_DIR, `${id}.json`), "utf8").slice(1, -1))
            .join(","),
    )
    .join("");
  expect(joined).toBe(await readFile(join(dist, FIND), "utf8"));
}, 120_000);
