// `npm run export` from a runs build (each list once, no page file): the static copy a file host gets holds every
// page file, written from the runs, and never the runs; byte for byte the copy of a pages build of the same catalog,
// with every page and with --pages aligned, for each host's own files. A run that is not the one the build's index
// names is one line, nothing exported.
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../../scripts/build.ts";
import { makeStaticCopy } from "../../../../scripts/hosts/static/static-copy.ts";
import { fixture, tempDir } from "../../../helpers/fs/dirs.ts";
import { hashTree } from "../../../helpers/fs/tree.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
let pages: string;
let runs: string;

beforeAll(async () => {
  dir = await tempDir("export-runs-");
  pages = join(dir.path, "pages");
  runs = join(dir.path, "runs");
  await build({ contentDir: fixture("tiny"), outDir: pages });
  await build({ contentDir: fixture("tiny"), outDir: runs, layout: "runs" });
});
afterAll(() => dir?.remove());

describe("npm run export from a runs build", () => {
  for (const [name, host, limits] of [
    ["every page, for a static host", "static", undefined],
    ["aligned pages, for Netlify", "netlify", [20, 100]],
  ] as const) {
    it(`writes the copy a pages build gives: ${name}`, async () => {
      const fromPages = await makeStaticCopy(pages, join(dir.path, `${host}-from-pages`), host, limits);
      const fromRuns = await makeStaticCopy(runs, join(dir.path, `${host}-from-runs`), host, limits);
      expect(await hashTree(fromRuns.out)).toEqual(await hashTree(fromPages.out));
      const { from: _a, out: _b, ...counts } = fromRuns;
      const { from: _c, out: _d, ...expected } = fromPages;
      expect(counts).toEqual(expected);
      expect(await fg("runs/**", { cwd: fromRuns.out })).toEqual([]);
      expect((await fg("v1/software/pages/**", { cwd: fromRuns.out })).length).toBe(limits ? 11 : 1_500);
    });
  }

  it("refuses a run of another length than the index names, in one line, with nothing written", async () => {
    const copy = join(dir.path, "cut");
    await build({ contentDir: fixture("tiny"), outDir: copy, layout: "runs" });
    await writeFile(join(copy, "runs/all.run"), "[]");
    const out = join(dir.path, "cut-export");
    await expect(makeStaticCopy(copy, out, "static")).rejects.toThrow(
      /runs\/all\.run holds 2 bytes where the build's index says \d+: build again$/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
