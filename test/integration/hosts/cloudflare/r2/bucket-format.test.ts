// docs/hosts/r2-bucket-format.md is a specification: a reader written from it alone (test/helpers/r2/format-reader.ts,
// which imports nothing from scripts/) reads a bucket the project's upload wrote, two builds deep, and every body it
// finds is the build's file byte for byte; a version it does not know is refused.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { publishedFiles, uploadToR2 } from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { repoRoot } from "../../../../helpers/fs/dirs.ts";
import { ab, buildsAB } from "../../../../helpers/r2/builds-ab.ts";
import { readBuild } from "../../../../helpers/r2/format-reader.ts";
import { memoryBucket } from "../../../../helpers/r2/memory-bucket.ts";

// A and B: the tiny fixture, and one with another site address and one tool more (every list and total changes).
buildsAB();

/** Every published file of `dist` is in what the reader read, byte for byte; a list's pages are the lists'. */
async function expectReadIs(read: ReturnType<typeof readBuild>, dist: string) {
  let compared = 0;
  const missing: string[] = [];
  for (const path of await publishedFiles(dist)) {
    const file = read.files.get(path);
    if (!file) {
      if (!read.lists.some((key) => path.startsWith(`${key}/`))) missing.push(path);
      continue;
    }
    expect(file.body.equals(await readFile(join(dist, path))), path).toBe(true);
    expect(read.shardOf(path)).toBeDefined();
    compared++;
  }
  expect(missing, "files the reader did not find").toEqual([]);
  expect(compared).toBeGreaterThan(50);
}

it("a reader written from the format document alone reads both builds of a bucket, every body the build's", async () => {
  const bucket = memoryBucket();
  const a = await uploadToR2(ab.distA, bucket.target);
  const b = await uploadToR2(ab.distB, bucket.target);
  const get = (key: string) => bucket.objects.get(key)?.bytes ?? null;

  const live = readBuild(get);
  expect(live.id).toBe(b.build);
  expect(live.pointer).toMatchObject({ build: b.build, previous: a.build });
  await expectReadIs(live, ab.distB);
  const older = readBuild(get, a.build);
  await expectReadIs(older, ab.distA);
  // B reused A's packs for the bodies it shares: some pack is named by both records
  expect(live.packs.some((p) => older.packs.includes(p))).toBe(true);
  // no key outside the document's prefixes
  expect(
    [...bucket.objects.keys()].filter((k) => !/^(live\.json|builds\/|shards\/|packs\/|uploads\/)/.test(k)),
  ).toEqual([]);
});

it("the reader refuses a version it does not know, as the document says a reader must", async () => {
  const bucket = memoryBucket();
  await uploadToR2(ab.distA, bucket.target);
  const live = JSON.parse(new TextDecoder().decode(bucket.objects.get("live.json")!.bytes));
  const get = (key: string) =>
    key === "live.json"
      ? new TextEncoder().encode(JSON.stringify({ ...live, format: 99 }))
      : (bucket.objects.get(key)?.bytes ?? null);
  expect(() => readBuild(get)).toThrow(/^live\.json: format 99 is not one this reader knows$/);
});

it("the reader imports nothing from scripts/", async () => {
  const source = await readFile(join(repoRoot, "test/helpers/r2/format-reader.ts"), "utf8");
  const imports = [...source.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
  expect(imports.length).toBeGreaterThan(0);
  expect(imports.filter((from) => !from!.startsWith("node:"))).toEqual([]);
});
