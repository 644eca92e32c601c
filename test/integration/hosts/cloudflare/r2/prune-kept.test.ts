// `upload:r2 -- --prune --keep N` keeps the N newest builds and the live one: when the live build is not among the
// newest (a rollback), the summary says why it was kept, so a kept build is never a surprise.
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "../../../../../scripts/build.ts";
import { listBuilds, rollback } from "../../../../../scripts/hosts/cloudflare/r2/bucket.ts";
import { prune } from "../../../../../scripts/hosts/cloudflare/r2/prune.ts";
import { keptLine } from "../../../../../scripts/hosts/cloudflare/r2/summary.ts";
import { uploadToR2 } from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { fixture, tempDir } from "../../../../helpers/fs/dirs.ts";
import { memoryBucket } from "../../../../helpers/r2/memory-bucket.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
let content: string;
let dist: string;

beforeAll(async () => {
  dir = await tempDir("cloudflare-r2-prune-kept-");
  content = join(dir.path, "content");
  dist = join(dir.path, "dist");
  await cp(fixture("tiny"), content, { recursive: true });
}, 60_000);

afterAll(() => dir?.remove());

it("prune --keep 1 after a rollback keeps the live build too, and says it is kept because it is live", async () => {
  const bucket = memoryBucket();
  await build({ contentDir: content, outDir: dist });
  const first = (await uploadToR2(dist, bucket.target)).build;
  const tool = JSON.parse(await readFile(join(content, "tools/beta-mail.json"), "utf8"));
  await writeFile(join(content, "tools/bravo.json"), JSON.stringify({ ...tool, name: "Bravo", slug: "bravo" }));
  await build({ contentDir: content, outDir: dist });
  const second = (await uploadToR2(dist, bucket.target)).build;
  await rollback(bucket.target);

  const pruned = await prune(bucket.target, 1);
  expect(pruned.kept).toEqual([second, first]);
  expect(pruned.keptBecause).toEqual({
    [first]: "it is the live build (newer ones were rolled back from or never switched to)",
  });
  expect(keptLine(pruned.kept, pruned.keptBecause, 1)).toBe(
    `${second}, ${first} (${first} beyond the 1 newest: it is the live build (newer ones were rolled back from or never switched to))`,
  );
  expect((await listBuilds(bucket.target)).map((b) => b.id)).toEqual([second, first]);

  // Without a rollback the newest is the live one: nothing beyond it is kept, and no reason is given.
  await rollback(bucket.target, second);
  const again = await prune(bucket.target, 1);
  expect(again.kept).toEqual([second]);
  expect(again.keptBecause).toEqual({});
  expect(keptLine(again.kept, again.keptBecause, 1)).toBe(second);
}, 120_000);
