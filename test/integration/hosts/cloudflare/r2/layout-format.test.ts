// The bucket's layout has a format (3: lists and the export as pieces), in the pointer and in each build's record. A
// bucket an older layout wrote (format 1: one body per page, no format; format 2: each list one run) is never read as
// this one: the Worker answers as if nothing were live (and logs one line), an upload sends everything anew and
// switches, and a rollback to such a build is refused with one line. Over the Worker module in Node and an in-memory
// bucket.
import { expect, it, vi } from "vitest";
import { errorBodies } from "../../../../../scripts/api/contract/error-bodies.ts";
import { loadRouteTable } from "../../../../../scripts/api/load-route-table.ts";
import { build } from "../../../../../scripts/build.ts";
import { readLive, readRecord, rollback } from "../../../../../scripts/hosts/cloudflare/r2/bucket.ts";
import { summaryLine } from "../../../../../scripts/hosts/cloudflare/r2/summary.ts";
import { uploadToR2 } from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { buildRecordKey, LAYOUT_FORMAT, LIVE_KEY } from "../../../../../scripts/hosts/cloudflare/worker/r2-layout.ts";
import { createWorker } from "../../../../../scripts/hosts/cloudflare/worker/worker.ts";
import { builtSite } from "../../../../helpers/build/built-site.ts";
import { fixture } from "../../../../helpers/fs/dirs.ts";
import { memoryBucket } from "../../../../helpers/r2/memory-bucket.ts";

const built = builtSite({ prefix: "r2-layout-format-" });

/** The bucket as an older layout left it: the same keys, the pointer and the record of that format (1: none). */
async function asOlderLayout(bucket: ReturnType<typeof memoryBucket>, id: string, older: number) {
  const strip = async (key: string) => {
    const { format, ...rest } = JSON.parse((await bucket.target.read(key))!.text) as { format?: number };
    expect(format).toBe(LAYOUT_FORMAT);
    const written = older === 1 ? rest : { ...rest, format: older };
    await bucket.target.put([{ key, body: new TextEncoder().encode(JSON.stringify(written)) }]);
  };
  await strip(LIVE_KEY);
  await strip(buildRecordKey(id));
}

it.each([1, 2])(
  "a live build of format %i: the Worker answers 503 and says why once; an upload sends everything and switches",
  async (older) => {
    const bucket = memoryBucket();
    const first = await uploadToR2(built.dist, bucket.target);
    await asOlderLayout(bucket, first.build, older);
    const worker = createWorker(await loadRouteTable(built.dist), errorBodies("/v1"));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const path of ["/v1/categories", "/v1/software?limit=2"]) {
        const res = await worker.fetch(new Request(`https://api.example${path}`), { BUCKET: bucket.binding });
        expect(res.status, path).toBe(503);
      }
      expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/uploaded in another layout of the bucket: upload it again/),
      ]);
    } finally {
      logged.mockRestore();
    }
    const again = await uploadToR2(built.dist, bucket.target);
    // the same content, so the same build id: switched to all the same, nothing of the old layout reused
    expect(again).toMatchObject({ build: first.build, otherLayout: true, present: 0, switched: true });
    expect(again.sent).toBe(again.objects);
    expect(summaryLine(again)).toMatch(
      /; the build live before was uploaded in an older layout of the bucket: this one was sent whole/,
    );
    expect((await readLive(bucket.target))!.pointer.format).toBe(LAYOUT_FORMAT);
    await new Promise((r) => setTimeout(r, 1100)); // the isolate's pointer
    const res = await worker.fetch(new Request("https://api.example/v1/software?limit=2"), { BUCKET: bucket.binding });
    expect(res.status).toBe(200);
  },
);

it.each([1, 2])("a rollback to a build of format %i is refused with one line, and nothing switches", async (older) => {
  const bucket = memoryBucket();
  const first = await uploadToR2(built.dist, bucket.target);
  await asOlderLayout(bucket, first.build, older);
  // another build of this layout goes live over it (its id differs: the content differs)
  const other = `${built.dir}/other`;
  const content = `${built.dir}/content`;
  const { cp, readFile, writeFile } = await import("node:fs/promises");
  await cp(fixture("tiny"), content, { recursive: true });
  const site = JSON.parse(await readFile(`${content}/site.json`, "utf8"));
  await writeFile(`${content}/site.json`, JSON.stringify({ ...site, siteUrl: "https://other.example" }));
  await build({ contentDir: content, outDir: other });
  const second = await uploadToR2(other, bucket.target);
  expect(second.previous).toBe(first.build);
  await expect(rollback(bucket.target)).rejects.toThrow(
    new RegExp(`^build ${first.build} was uploaded in an older layout of the bucket, which this Worker does not read`),
  );
  expect((await readLive(bucket.target))!.pointer.build).toBe(second.build);
  expect((await readRecord(bucket.target, first.build))!.format).toBe(older === 1 ? undefined : older);
});
