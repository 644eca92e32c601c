// Prune over an in-memory bucket: after builds that leave packs mostly unused, a prune keeping the live build rewrites
// those packs (bodies, lists' pieces and the export's), and the live build still answers every file and page byte for byte through
// the Worker module, the bucket holding at most 1.5× what the live build stores.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { errorBodies } from "../../../../../scripts/api/contract/error-bodies.ts";
import type { RouteTable } from "../../../../../scripts/api/runtime/route-table.ts";
import { build } from "../../../../../scripts/build.ts";
import { readLive, readRecord, readShard } from "../../../../../scripts/hosts/cloudflare/r2/bucket.ts";
import { prune } from "../../../../../scripts/hosts/cloudflare/r2/prune.ts";
import { uploadToR2 } from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { createWorker } from "../../../../../scripts/hosts/cloudflare/worker/worker.ts";
import { builtSite } from "../../../../helpers/build/built-site.ts";
import { expectLiveBuildIs } from "../../../../helpers/r2/expect-bucket.ts";
import { memoryBucket } from "../../../../helpers/r2/memory-bucket.ts";

const site = builtSite({ copyContent: true, prefix: "cloudflare-r2-prune-" });
let content: string;
let dist: string;

beforeAll(() => {
  ({ content, dist } = site);
});

const stored = (bucket: ReturnType<typeof memoryBucket>) =>
  [...bucket.objects].filter(([k]) => /^(packs|shards)\//.test(k)).reduce((sum, [, o]) => sum + o.bytes.byteLength, 0);

it("prune rewrites mostly unused packs; the live build answers every file as before; the bucket ≤ 1.5× the live build", async () => {
  const bucket = memoryBucket();
  await uploadToR2(dist, bucket.target);
  // Three more builds, each a new tool (every total changes): the first packs end up mostly unused. The first one
  // joins seo, the next two beta-mail's categories: seo's new piece stays in a pack the next uploads leave sparse.
  const tool = JSON.parse(await readFile(join(content, "tools/beta-mail.json"), "utf8"));
  for (const name of ["Bravo", "Charlie", "Delta"]) {
    const slug = name.toLowerCase();
    const categories = name === "Bravo" ? ["seo"] : tool.categories;
    await writeFile(join(content, `tools/${slug}.json`), JSON.stringify({ ...tool, name, slug, categories }));
    await build({ contentDir: content, outDir: dist });
    await uploadToR2(dist, bucket.target);
  }
  const before = stored(bucket);
  // where each list's pieces lie before the prune
  const runPlace = async () => {
    const places = new Map<string, string>();
    for (const [, name] of (await readLive(bucket.target))!.pointer.shards) {
      const shard = await readShard(bucket.target, name);
      for (const [key, , , pieces] of shard.lists ?? [])
        places.set(key, pieces.map(([, pack, offset]) => `${shard.packs[pack]}@${offset}`).join(" "));
    }
    return places;
  };
  const runsBefore = await runPlace();
  const pruned = await prune(bucket.target, 1);
  expect(pruned.rewrittenPacks, "some pack was mostly unused").toBeGreaterThan(0);
  expect(pruned.bucketBytes).toEqual({ before, after: stored(bucket) });
  const live = (await readLive(bucket.target))!.pointer;
  const record = (await readRecord(bucket.target, live.build))!;
  expect(stored(bucket)).toBeLessThanOrEqual(1.5 * record.storedBytes);

  // Every file of the live build, through the Worker module: byte for byte the build's.
  const table = JSON.parse(await readFile(join(dist, "routes.json"), "utf8")) as RouteTable;
  const worker = createWorker(table, errorBodies(table.basePath));
  const store = {
    BUCKET: bucket.binding,
  };
  let files = 0;
  for (const [, name] of live.shards)
    for (const [path] of (await readShard(bucket.target, name)).files) {
      if (!path.startsWith("v1/software/") || !path.endsWith(".json") || path.includes("/pages/")) continue;
      const res = await worker.fetch(new Request(`https://api.example/${path.replace(/\.json$/, "")}`), store);
      expect(res.status, path).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(join(dist, path))), path).toBe(true);
      files++;
    }
  expect(files).toBeGreaterThan(3);
  // Every page of every list: its pieces, moved by the prune or not, still give the build's page files.
  const runsAfter = await runPlace();
  expect([...runsAfter.keys()].sort()).toEqual([...runsBefore.keys()].sort());
  expect(
    [...runsAfter].some(([key, place]) => runsBefore.get(key) !== place),
    "some list's pieces were moved to a new pack",
  ).toBe(true);
  let pages = 0;
  for (const key of runsAfter.keys()) {
    const filter = key.slice("v1/software/pages/".length);
    const category = filter.startsWith("category/") ? `&category=${filter.slice("category/".length)}` : "";
    for (const limit of [1, 2, 3, 100])
      for (let offset = 0; ; offset++) {
        const path = `v1/software/pages/${filter}/${limit}/${offset}.json`;
        const res = await worker.fetch(
          new Request(`https://api.example/v1/software?limit=${limit}&offset=${offset}${category}`),
          store,
        );
        if (res.status === 400) break; // past the list's end
        expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(join(dist, path))), path).toBe(true);
        pages++;
      }
  }
  expect(pages).toBeGreaterThan(20);
  // And every stored body and page through the bucket itself, by ranged reads as a Worker reads them.
  await expectLiveBuildIs((key, range) => bucket.target.readBytes(key, range), dist, { pages: "some" });
}, 120_000);
