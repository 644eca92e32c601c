// `npm run build -- --layout runs` (alias `--edge-only`): every body but the list pages, each list once (its run and
// offsets files, as a pages build writes them too); the hash tree as a pages build writes it (E2); the same build for
// the R2 upload as the pages tree (every host, validate and export take it: their own tests).
import { existsSync } from "node:fs";
import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { uploadToR2 } from "../../../scripts/hosts/cloudflare/r2/upload.ts";
import { filesButPages, indexButLayout, pagesAgainstRuns } from "../../helpers/build/layouts.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";
import { memoryBucket } from "../../helpers/r2/memory-bucket.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
let content: string;
beforeAll(async () => {
  dir = await tempDir("runs-layout-");
  content = join(dir.path, "content");
  await cp(fixture("tiny"), content, { recursive: true });
});
afterAll(() => dir?.remove());

it("writes no list page, the hash tree of a full build, and the same R2 build as the full tree", async () => {
  const full = join(dir.path, "full");
  const edge = join(dir.path, "edge");
  await build({ contentDir: content, outDir: full });
  const result = await build({ contentDir: content, outDir: edge, layout: "runs" });
  expect(result.layout).toBe("runs");
  expect(existsSync(join(full, "v1/software/pages/all/20/0.json"))).toBe(true);
  expect(existsSync(join(edge, "v1/software/pages"))).toBe(false);
  for (const file of ["v1/sync/index.json", "v1/software/alpha-mail.json", "runs/all.run", "runs/all.offsets"])
    expect((await readFile(join(edge, file))).equals(await readFile(join(full, file))), file).toBe(true);
  // H6: both layouts of one build hold the same files, the page files aside; their indexes differ by the layout alone
  expect(await filesButPages(edge)).toEqual(await filesButPages(full));
  expect(indexButLayout(edge)).toEqual(indexButLayout(full));
  expect(JSON.parse(await readFile(join(edge, "build-index.json"), "utf8")).layout).toBe("runs");
  // L1: every page file of the pages build is its list's run sliced by its offsets, in the envelope
  const l1 = await pagesAgainstRuns(full);
  expect(l1.differ).toEqual([]);
  expect(l1.compared).toBeGreaterThan(1_000);
  const fromFull = await uploadToR2(full, memoryBucket().target);
  const fromEdge = await uploadToR2(edge, memoryBucket().target);
  expect(fromEdge.build).toBe(fromFull.build);
  expect(fromEdge.storedBytes).toBe(fromFull.storedBytes);
});

// Every host takes a runs build: the Node server (test/integration/hosts/node/runs-pages.test.ts), nginx
// (test/integration/hosts/nginx/runs.test.ts), the Worker over R2 (its upload above).
