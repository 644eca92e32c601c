// The R2 upload against the real local R2 that Miniflare persists, served by the generated Worker in workerd:
// a first upload sends everything, an unchanged one nothing, a one-price edit exactly the files whose bytes
// changed, and a removed tool's files are deleted. The expected sets come from comparing the two builds' bytes.
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { etagOf } from "../../../../scripts/api/etag-node.ts";
import { build } from "../../../../scripts/build.ts";
import { type LocalWorker, startLocalWorker } from "../../../../scripts/hosts/cloudflare/local-worker.ts";
import { publishedFiles, type UploadTarget, uploadToR2 } from "../../../../scripts/hosts/cloudflare/upload-r2.ts";
import { fixture, tempDir } from "../../../helpers/dirs.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
let content: string;
let dist: string;
let worker: LocalWorker;
let target: UploadTarget;
let bucket: {
  get(key: string): Promise<unknown>;
  head(key: string): Promise<{ customMetadata?: Record<string, string> } | null>;
};

beforeAll(async () => {
  dir = await tempDir("cloudflare-r2-");
  content = join(dir.path, "content");
  dist = join(dir.path, "dist");
  await cp(fixture("tiny"), content, { recursive: true });
  await build({ contentDir: content, outDir: dist });
  worker = await startLocalWorker({
    distDir: dist,
    mode: "r2",
    r2Persist: join(dir.path, "r2"),
    port: 0,
    uploader: true,
  });
  target = await worker.uploadTarget();
  bucket = (await worker.miniflare.getR2Bucket("BUCKET")) as unknown as typeof bucket;
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await dir?.remove();
});

/** Every published file's bytes, by key. */
async function snapshot(): Promise<Map<string, Buffer>> {
  const keys = await publishedFiles(dist);
  return new Map(await Promise.all(keys.map(async (k) => [k, await readFile(join(dist, k))] as [string, Buffer])));
}

it("uploads everything once, then nothing, then exactly what a price edit changed, and deletes what went away", async () => {
  const first = await uploadToR2(dist, target);
  const files = (await publishedFiles(dist)).length;
  expect(first).toMatchObject({ first: true, files, sent: files, deleted: 0 });
  // The Node server's ETag travels as custom metadata, where the Worker reads it.
  const key = "v1/software/alpha-mail.json";
  expect((await bucket.head(key))?.customMetadata).toEqual({ etag: etagOf(await readFile(join(dist, key))) });

  expect(await uploadToR2(dist, target)).toMatchObject({ first: false, sent: 0, unchanged: files, deleted: 0 });

  // One price of one tool.
  const before = await snapshot();
  const toolFile = join(content, "tools/alpha-mail.json");
  const tool = JSON.parse(await readFile(toolFile, "utf8"));
  tool.pricingPlans[1].price += 10;
  await writeFile(toolFile, JSON.stringify(tool, null, 2));
  await build({ contentDir: content, outDir: dist });
  const after = await snapshot();
  const changed = [...after].filter(([k, b]) => !before.get(k)?.equals(b)).map(([k]) => k);
  expect(changed.length).toBeGreaterThan(0);
  const edit = await uploadToR2(dist, target);
  expect(edit).toMatchObject({ sent: changed.length, deleted: 0, unchanged: files - changed.length });
  // The Worker over R2 answers the new price, with the new bytes' ETag.
  const res = await fetch(`${worker.url}/v1/software/alpha-mail`);
  expect(await res.text()).toBe(after.get("v1/software/alpha-mail.json")!.toString("utf8"));

  // A removed tool: its files leave the bucket, and the Worker answers software_not_found.
  await rm(join(content, "tools/quill.json"));
  await build({ contentDir: content, outDir: dist });
  const remaining = await snapshot();
  const removed = [...after.keys()].filter((k) => !remaining.has(k));
  expect(removed).toContain("v1/software/quill.json");
  const removal = await uploadToR2(dist, target);
  expect(removal.deleted).toBe(removed.length);
  for (const key of removed.slice(0, 20)) expect(await bucket.get(key), key).toBeNull();
  const gone = await fetch(`${worker.url}/v1/software/quill`);
  expect(gone.status).toBe(404);
  expect(((await gone.json()) as { error: { code: string } }).error.code).toBe("software_not_found");
}, 240_000);
