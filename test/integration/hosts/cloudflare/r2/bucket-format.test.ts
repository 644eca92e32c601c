// docs/hosts/r2-bucket-format.md is a specification: a reader written from it alone (test/helpers/r2/format-reader.ts,
// which imports nothing from scripts/) reads a bucket the project's upload wrote, two builds deep (one of each layout),
// and every body and every page it finds is the build's byte for byte; a version it does not know is refused. A writer
// written from it alone (test/helpers/r2/format-writer.ts) computes from each build every key, line, id, digest and
// shard cut, and they are the uploader's.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "../../../../../scripts/build.ts";
import { writeGeneratedCatalog } from "../../../../../scripts/content/generate.ts";
import { uploadToR2 } from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { fixture, repoRoot, tempDir } from "../../../../helpers/fs/dirs.ts";
import { expectedPage } from "../../../../helpers/r2/expect-bucket.ts";
import { MAX_PAGE_LIMIT, type ReadBuild, readBuild } from "../../../../helpers/r2/format-reader.ts";
import { writtenBuild } from "../../../../helpers/r2/format-writer.ts";
import { memoryBucket } from "../../../../helpers/r2/memory-bucket.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
/** A: a generated catalog of 600 tools in runs (its keys make several shards); B: the tiny fixture in pages. */
const dists = { a: "", b: "" };
beforeAll(async () => {
  dir = await tempDir("r2-bucket-format-");
  dists.a = join(dir.path, "a");
  dists.b = join(dir.path, "b");
  const content = join(dir.path, "content");
  await writeGeneratedCatalog(content, { tools: 600, categories: 12, seed: 7 });
  await build({ contentDir: content, outDir: dists.a, layout: "runs" });
  await build({ contentDir: fixture("tiny"), outDir: dists.b });
}, 120_000);
afterAll(() => dir?.remove());

/** Every file the build names is what the reader read, byte for byte; every page of every list the build's page. */
async function expectReadIs(read: ReadBuild, dist: string) {
  const index = JSON.parse(await readFile(join(dist, "build-index.json"), "utf8")) as {
    files: [string, number][];
    lists: Record<string, { category: string | null; lengths: number[] }>;
  };
  // the files the index names, and the one build record the Worker reads
  const paths = [...index.files.map(([path]) => path), "find-index.json"];
  for (const path of paths) {
    const file = read.files.get(path);
    expect(file, path).toBeDefined();
    expect(file!.body.equals(await readFile(join(dist, path))), path).toBe(true);
    expect(read.shardOf(path)).toBeDefined();
  }
  expect(read.files.size).toBe(paths.length);
  expect([...read.lists.keys()].sort()).toEqual(
    Object.keys(index.lists)
      .map((f) => `v1/software/pages/${f}`)
      .sort(),
  );
  let pages = 0;
  for (const [filter, { category, lengths }] of Object.entries(index.lists)) {
    const list = read.lists.get(`v1/software/pages/${filter}`)!;
    for (const limit of [1, 2, 3, 7, 20, MAX_PAGE_LIMIT])
      for (let offset = 0; offset <= lengths.length; offset++) {
        const page = list.page(limit, offset)!;
        expect(
          page.equals(await expectedPage(dist, filter, category, limit, offset)),
          `${filter} ${limit}/${offset}`,
        ).toBe(true);
        pages++;
      }
    expect(list.page(MAX_PAGE_LIMIT + 1, 0), "no page past the largest limit").toBeNull();
    expect(list.page(1, lengths.length + 1), "no page past the list's end").toBeNull();
  }
  expect(pages).toBeGreaterThan(50);
}

/** What a writer following the document computes from the build is what the bucket holds. */
function expectWrittenIs(read: ReadBuild, dist: string) {
  const written = writtenBuild(dist);
  expect(read.id).toBe(written.id);
  expect(read.shards.map(([first, , digest]) => [first, digest])).toEqual(written.shards);
  for (const [path, file] of written.files) {
    const stored = read.files.get(path);
    expect({ etag: stored?.etag, size: stored?.size, coding: stored?.coding }, path).toEqual(file);
  }
  for (const [key, list] of written.lists) {
    const stored = read.lists.get(key)!;
    expect({ id: stored.id, category: stored.category, pieces: stored.pieces }, key).toEqual({
      id: list.id,
      category: list.category,
      pieces: list.pieces,
    });
    expect(stored.items.map((item) => item.byteLength)).toEqual(list.lengths);
  }
  expect([...written.parted.keys()].sort(), "the export and the find index are stored in parts").toEqual([
    "find-index.json",
    "v1/export/catalog.json",
  ]);
}

it("a reader and a writer written from the format document alone agree with the bucket of two builds, every body and page the build's", async () => {
  const bucket = memoryBucket();
  const a = await uploadToR2(dists.a, bucket.target);
  const b = await uploadToR2(dists.b, bucket.target);
  const get = (key: string) => bucket.objects.get(key)?.bytes ?? null;

  const live = readBuild(get);
  expect(live.id).toBe(b.build);
  expect(live.pointer).toMatchObject({ build: b.build, previous: a.build });
  await expectReadIs(live, dists.b);
  expectWrittenIs(live, dists.b);
  const older = readBuild(get, a.build);
  expect(older.shards.length, "the sample's keys make several shards").toBeGreaterThan(1);
  await expectReadIs(older, dists.a);
  expectWrittenIs(older, dists.a);
  // no key outside the document's prefixes
  expect(
    [...bucket.objects.keys()].filter((k) => !/^(live\.json|builds\/|shards\/|packs\/|uploads\/)/.test(k)),
  ).toEqual([]);
}, 120_000);

it("the reader refuses a version it does not know, as the document says a reader must", async () => {
  const bucket = memoryBucket();
  await uploadToR2(dists.b, bucket.target);
  const live = JSON.parse(new TextDecoder().decode(bucket.objects.get("live.json")!.bytes));
  const get = (key: string) =>
    key === "live.json"
      ? new TextEncoder().encode(JSON.stringify({ ...live, format: 99 }))
      : (bucket.objects.get(key)?.bytes ?? null);
  expect(() => readBuild(get)).toThrow(/^live\.json: format 99 is not one this reader knows$/);
});

it("the reader and the writer import nothing from scripts/", async () => {
  for (const helper of ["format-reader.ts", "format-writer.ts"]) {
    const source = await readFile(join(repoRoot, "test/helpers/r2", helper), "utf8");
    const imports = [...source.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(
      imports.filter((from) => !from!.startsWith("node:")),
      helper,
    ).toEqual([]);
  }
});
