// B2: a reader polling the published tree while builds run (full; incremental insert, price, removal) never
// finds a file missing or half-written, and once the new build is published never gets an old body.
import { readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { generateCatalog, writeCatalog } from "../../../scripts/content/generate.ts";
import { editJson, startBuild } from "../../helpers/build/publish.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";

interface Expected {
  total: number;
  price: number;
}

describe("a reader during builds", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let content: string;
  let out: string;
  let watched: string;
  beforeAll(async () => {
    dir = await tempDir("msapi-reader-");
    content = join(dir.path, "content");
    out = join(dir.path, "dist");
    await writeCatalog(generateCatalog({ tools: 30, categories: 2, seed: 5 }), content);
    watched = (await readdir(join(content, "tools"))).sort()[10]!.replace(/\.json$/, "");
    await editJson(
      join(content, "tools", `${watched}.json`),
      (t) =>
        ((t.pricingPlans as { price: number | null }[])[0] = {
          name: "Pro",
          price: 1000,
          billing: "monthly",
          features: [],
        } as never),
    );
    await build({ contentDir: content, outDir: out });
  });
  afterAll(() => dir.remove());

  /** What the reader sees in one pass: the first page's meta.total and the watched tool's first price. */
  async function read(): Promise<Expected> {
    const page = JSON.parse(await readFile(join(out, "v1/software/pages/all/1/0.json"), "utf8"));
    const detail = JSON.parse(await readFile(join(out, `v1/software/${watched}.json`), "utf8"));
    await readFile(join(out, "routes.json"));
    return { total: page.meta.total, price: detail.data.pricingPlans[0].price };
  }

  /** Runs one build while reading in a loop; every read is the old or the new tree, and only new after publication. */
  async function buildWhileReading(args: string[], before: Expected, after: Expected): Promise<number> {
    const initial = await readlink(out);
    const child = startBuild(["--content", content, "--out", out, ...args]);
    let exited = false;
    void child.result.then(() => (exited = true));
    let reads = 0;
    let sawNew = false;
    while (!exited) {
      const linkBefore = await readlink(out);
      const seen = await read(); // throws on a missing file (ENOENT) or a half-written body (JSON)
      reads++;
      if (linkBefore !== initial)
        expect(seen).toEqual(after); // published: never an old body again
      else if (seen.total !== before.total || seen.price !== before.price) expect(seen).toEqual(after);
      if (seen.price === after.price && seen.total === after.total) sawNew = true;
      else expect(sawNew).toBe(false); // no going back
    }
    const result = await child.result;
    expect(result.code, result.stderr).toBe(0);
    expect(await read()).toEqual(after);
    return reads;
  }

  const setPrice = (price: number) =>
    editJson(
      join(content, "tools", `${watched}.json`),
      (t) => ((t.pricingPlans as { price: number }[])[0]!.price = price),
    );

  it("full build, then incremental insert, price change and removal", async () => {
    await setPrice(1001);
    let reads = await buildWhileReading(["--full"], { total: 30, price: 1000 }, { total: 30, price: 1001 });
    const model = JSON.parse(await readFile(join(content, "tools", `${watched}.json`), "utf8"));
    await writeFile(
      join(content, "tools/aaa-reader-insert.json"),
      JSON.stringify({ ...model, name: "Aaa Reader Insert", slug: "aaa-reader-insert" }),
    );
    reads += await buildWhileReading([], { total: 30, price: 1001 }, { total: 31, price: 1001 });
    await setPrice(1002);
    reads += await buildWhileReading([], { total: 31, price: 1001 }, { total: 31, price: 1002 });
    await rm(join(content, "tools/aaa-reader-insert.json"));
    reads += await buildWhileReading([], { total: 31, price: 1002 }, { total: 30, price: 1002 });
    expect(reads).toBeGreaterThan(100); // the reader really ran alongside
  }, 180_000);
});
