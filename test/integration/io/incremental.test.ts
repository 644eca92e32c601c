// Incremental builds write only the files whose bytes change, remove what is no longer built, and always end
// with exactly the tree a full build of the same content makes.
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { writeGeneratedCatalog } from "../../../scripts/content/generate.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

const EXPORT_FILE = "v1/export/catalog.json";

describe("incremental builds", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let content: string;
  let dist: string;

  const edit = async (file: string, change: (data: Record<string, unknown>) => void) => {
    const path = join(content, file);
    const data = JSON.parse(await readFile(path, "utf8"));
    change(data);
    await writeFile(path, JSON.stringify(data, null, 2));
  };
  /** The incremental tree must equal a fresh full build of the same content, byte for byte. */
  const expectSameAsFullBuild = async () => {
    const fresh = join(dir.path, "fresh");
    await build({ contentDir: content, outDir: fresh, full: true });
    expect(await hashTree(dist)).toEqual(await hashTree(fresh));
    await rm(fresh, { recursive: true });
  };

  beforeEach(async () => {
    dir = await tempDir();
    content = join(dir.path, "content");
    dist = join(dir.path, "dist");
    await cp(fixture("tiny"), content, { recursive: true });
    expect((await build({ contentDir: content, outDir: dist })).mode).toBe("full");
  });
  afterEach(() => dir.remove());

  it("unchanged content writes nothing", async () => {
    const result = await build({ contentDir: content, outDir: dist });
    expect(result).toMatchObject({ mode: "incremental", written: 0, deleted: 0 });
  });

  it("a price edit rewrites only the tool and the rankings of its categories", async () => {
    await edit("tools/beta-mail.json", (t) => ((t.pricingPlans as { price: number }[])[0]!.price = 25));
    const result = await build({ contentDir: content, outDir: dist });
    // beta-mail is only in "email": its detail and /best/email change; no summary (no price in it), no page, no
    // list piece, no search answer. The export holds every detail: it and its one piece holding beta-mail change (the
    // old piece goes); the hash tree changes in the three shards holding those targets (software-0, best-0, catalog)
    // and its root; the find index holds each tool's lowest paid price: it, its parts and its new piece (the old goes).
    expect(result).toMatchObject({ mode: "incremental", written: 2 + 2 + 3 + 1 + 3, deleted: 1 + 1 });
    await expectSameAsFullBuild();
  });

  it("the OpenAPI description is rewritten when an edit changes its examples, and kept when not", async () => {
    const openapi = () => readFile(join(dist, "v1/openapi.json"), "utf8");
    const before = await openapi();
    // alpha-mail is the first tool: its detail is the description's example of GET /software/{slug}.
    await edit("tools/alpha-mail.json", (t) => ((t.pricingPlans as { price: number }[]).at(-1)!.price = 977));
    await build({ contentDir: content, outDir: dist });
    const after = await openapi();
    expect(after).not.toBe(before);
    expect(after).toContain('"price": 977');
    await expectSameAsFullBuild();
    await edit("tools/beta-mail.json", (t) => ((t.pricingPlans as { price: number }[])[0]!.price = 25));
    await build({ contentDir: content, outDir: dist });
    expect(await openapi()).toBe(after);
    await expectSameAsFullBuild();
  });

  it("an edit that changes no published field (an editorial note) renders that tool's detail again and writes nothing", async () => {
    await edit("tools/quill.json", (t) => (t.internalNotes = "Ask about the agency plan."));
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ mode: "incremental", written: 0 });
  });

  it("a new site address rewrites every tool's detail (its url), though no tool file changed", async () => {
    await edit("site.json", (s) => (s.siteUrl = "https://catalog.example.org"));
    const result = await build({ contentDir: content, outDir: dist });
    expect(result.written).toBeGreaterThan(4);
    for (const slug of ["beta-mail", "quill"])
      expect(JSON.parse(await readFile(join(dist, `v1/software/${slug}.json`), "utf8")).data.url).toBe(
        `https://catalog.example.org/software/${slug}`,
      );
    await expectSameAsFullBuild();
  });

  it("a summary edit rewrites just the pages whose slice holds the tool", async () => {
    await edit("tools/quill.json", (t) => (t.shortDescription = "Changed."));
    const result = await build({ contentDir: content, outDir: dist });
    // quill is 3rd of 4 in "all" and 1st of 1 in "seo". In a list, item i is on pages o = i-limit+1 … i:
    // "all": sum over limit 1..100 of min(limit, 3) = 1+2+3*98 = 297; "seo": 100 (offset 0, every limit); + detail;
    // + the export; + the search answers of quill's prefixes (q…quill, s…seo: 8); + the hash tree's shards of those
    // (list, category-seo, software-0, search-0, catalog) and its root; the two lists' runs and offsets (runs/); the
    // pieces holding quill (one of each list, one of the export) replace the old ones.
    expect(result).toMatchObject({ mode: "incremental", written: 297 + 100 + 1 + 1 + 8 + 6 + 4 + 3, deleted: 3 });
    await expectSameAsFullBuild();
  });

  it("a tool inserted mid-list rewrites every page of its lists (meta.total changes) and adds the new offset", async () => {
    const tool = JSON.parse(await readFile(join(content, "tools/beta-mail.json"), "utf8"));
    await writeFile(
      join(content, "tools/bravo.json"),
      JSON.stringify({ ...tool, name: "Bravo", slug: "bravo", categories: ["seo"] }),
    );
    const result = await build({ contentDir: content, outDir: dist });
    // "all" goes 4 → 5 tools, "seo" 1 → 2: 100 × (5+1) + 100 × (2+1) pages; plus the new detail, /best/seo,
    // /categories (seo is now listed), the two offset_out_of_range bodies whose totals changed, and openapi.json
    // (its example page carries meta.total); the export; the search answers of b (Beta's too) and br…bravo (5); the
    // hash tree's shards of those (list, category-seo, software-0, best-0, search-0 and search-1: 34 answers fill two
    // bins of 32, catalog) and its root; the two lists' runs and offsets (runs/); the pieces of the two lists and of
    // the export that hold bravo replace the old; the find index, its parts and its piece (replacing the old).
    expect(result).toMatchObject({
      mode: "incremental",
      written: 600 + 300 + 6 + 1 + 5 + 8 + 4 + 3 + 3,
      deleted: 3 + 1,
    });
    await expectSameAsFullBuild();
  });

  it("a tool inserted with as many hash tree bins as before patches the tree's shards, byte for byte a full build's", async () => {
    const tool = JSON.parse(await readFile(join(content, "tools/beta-mail.json"), "utf8"));
    // one new search answer (q=2) beside the 29: still one bin of search answers, one of details
    await writeFile(
      join(content, "tools/beta-mail-2.json"),
      JSON.stringify({ ...tool, name: "Beta Mail 2", slug: "beta-mail-2" }),
    );
    const result = await build({ contentDir: content, outDir: dist });
    expect(result.mode).toBe("incremental");
    const search = JSON.parse(await readFile(join(dist, "v1/sync/search-0.json"), "utf8"));
    expect(search.meta.targets).toBe(30);
    expect(Object.keys(search.data)).toEqual(Object.keys(search.data).sort());
    await expectSameAsFullBuild();
  });

  it("a removed tool and a removed category delete their files", async () => {
    await rm(join(content, "tools/quill.json"));
    await rm(join(content, "categories/podcasts.json"));
    const before = (await hashTree(dist)).size;
    const result = await build({ contentDir: content, outDir: dist });
    expect(result.mode).toBe("incremental");
    // quill's detail, /best/seo (now empty), offset 4 of "all" and offset 1 of "seo" per limit, all of "podcasts"
    // (100 pages) and its offset_out_of_range body; the search answers only quill had (q…quill, s…seo: 8) and the
    // hash tree's shard of the podcasts list; its run and offsets (runs/); the old pieces of "all", of "seo" (now
    // empty: no piece), of the export and of the find index.
    expect(result.deleted).toBe(1 + 1 + 100 + 100 + 100 + 1 + 8 + 1 + 2 + 3 + 1);
    // and two pieces added: the catalog body's new one and the find index's (the new "all" list holds the "email"
    // list's items: its piece is there already)
    expect((await hashTree(dist)).size).toBe(before - result.deleted + 2);
    await expectSameAsFullBuild();
  });

  it("with --compress, precompressed siblings follow their bodies: rewritten, and removed when a body shrinks below 1 KB", async () => {
    await edit(
      "tools/quill.json",
      (t) => (t.shortDescription = "Changed, and long enough to move several pages across the 1 KB line. ".repeat(3)),
    );
    await build({ contentDir: content, outDir: dist, compress: true, full: true });
    // The next build starts from the generation before the published one: make both hold the long text.
    expect((await build({ contentDir: content, outDir: dist, compress: true })).mode).toBe("incremental");
    await edit("tools/quill.json", (t) => (t.shortDescription = "Short."));
    const shrunk = await build({ contentDir: content, outDir: dist, compress: true });
    expect(shrunk.mode).toBe("incremental");
    expect(shrunk.deleted).toBeGreaterThan(0); // siblings of pages now under 1 KB
    const fresh = join(dir.path, "fresh");
    await build({ contentDir: content, outDir: fresh, compress: true, full: true });
    expect(await hashTree(dist)).toEqual(await hashTree(fresh));
  });

  it("each build starts from the generation before the published one (recycled) and still ends equal to a full build", async () => {
    await edit("tools/beta-mail.json", (t) => ((t.pricingPlans as { price: number }[])[0]!.price = 25));
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ mode: "incremental", base: "cloned" });
    const tool = JSON.parse(await readFile(join(content, "tools/beta-mail.json"), "utf8"));
    await writeFile(join(content, "tools/bravo.json"), JSON.stringify({ ...tool, name: "Bravo", slug: "bravo" }));
    // Two builds back: the full build, so the price edit is written again along with the insert.
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ mode: "incremental", base: "recycled" });
    await rm(join(content, "tools/quill.json"));
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ mode: "incremental", base: "recycled" });
    await expectSameAsFullBuild();
  });

  it("an edit to content that is then broken leaves the tree and the next build intact", async () => {
    const before = await hashTree(dist);
    await edit("tools/quill.json", (t) => (t.rating = "great"));
    await expect(build({ contentDir: content, outDir: dist })).rejects.toThrow("content error");
    expect(await hashTree(dist)).toEqual(before);
    await edit("tools/quill.json", (t) => (t.rating = 4.5));
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ mode: "incremental", written: 0 });
  });
});

describe("incremental builds of a catalog whose export has many pieces", () => {
  it("a price edit's rebuild writes the export from the pieces the build before wrote, byte for byte a full build's", async () => {
    const dir = await tempDir();
    try {
      const content = join(dir.path, "content");
      const dist = join(dir.path, "dist");
      await writeGeneratedCatalog(content, { tools: 400, categories: 6, seed: 7 });
      await build({ contentDir: content, outDir: dist, layout: "runs" });
      const exportOf = async (root: string) => JSON.parse(await readFile(join(root, EXPORT_FILE), "utf8"));
      const pieces = (await readdir(join(dist, "v1/sync/pieces"))).length;
      expect(pieces, "the export is cut into several pieces").toBeGreaterThan(3);
      // Two edits: the first rebuild clones the published tree, the second recycles the full build's generation.
      for (const price of [41, 42]) {
        const slug = (await exportOf(dist)).data.software[200].slug as string;
        const path = join(content, "tools", `${slug}.json`);
        const tool = JSON.parse(await readFile(path, "utf8"));
        tool.pricingPlans[0].price = price;
        await writeFile(path, JSON.stringify(tool));
        expect(await build({ contentDir: content, outDir: dist, layout: "runs" })).toMatchObject({
          mode: "incremental",
        });
      }
      const fresh = join(dir.path, "fresh");
      await build({ contentDir: content, outDir: fresh, layout: "runs", full: true });
      expect((await exportOf(dist)).data.software[200].pricingPlans[0].price).toBe(42);
      expect(await hashTree(dist)).toEqual(await hashTree(fresh));
    } finally {
      await dir.remove();
    }
  }, 120_000);
});
