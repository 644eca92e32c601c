// Page writer threads started ahead of their job: the job is written by them, and an idle one never keeps its
// process alive (a build that fails before writing exits all the same).
import { spawnSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PageJob } from "../../../scripts/io/page-units.ts";
import { startPageWriters, writePages } from "../../../scripts/io/page-writers.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";

const ROOT = join(import.meta.dirname, "../../..");

/** One list of 250 items at limits 1–100: 25,100 pages, enough to be written by a thread, not inline. */
const job = (root: string): PageJob => ({
  root,
  pageTemplate: "pages/{filter}/{limit}/{offset}.json",
  lists: [{ filter: "all", category: null, items: Array.from({ length: 250 }, (_, i) => `{"i":${i}}`) }],
  units: Array.from({ length: 100 }, (_, i) => ({ list: 0, limit: i + 1, offsets: "all" as const, replace: false })),
  compress: false,
});

describe("page writers started ahead", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.remove());

  it("write the job they are given, as a writer started for it does", async () => {
    const writers = startPageWriters();
    const ahead = await writePages(job(join(dir.path, "ahead")), undefined, writers);
    writers.close();
    expect(writers.take(1)).toEqual([]); // the job took the one started ahead
    const onDemand = await writePages(job(join(dir.path, "on-demand")));
    expect(ahead).toEqual(onDemand);
    expect(ahead.written).toBe(25_100);
    const page = (root: string) => readFile(join(dir.path, root, "pages/all/7/240.json"), "utf8");
    expect(await page("ahead")).toBe(await page("on-demand"));
    expect(JSON.parse(await page("ahead")).data).toEqual([...Array(7).keys()].map((i) => ({ i: 240 + i })));
    expect((await readdir(join(dir.path, "ahead/pages/all"))).length).toBe(100);
  });

  it("never keep an idle process alive, closed or not", async () => {
    for (const close of ["", "writers.close();"]) {
      // A script file, not -e: a worker thread inherits its parent's flags, and --input-type would fail it.
      const script = join(dir.path, "idle.mts");
      await writeFile(
        script,
        `import { startPageWriters } from ${JSON.stringify(join(ROOT, "scripts/io/page-writers.ts"))};
        const writers = startPageWriters();
        setTimeout(() => { ${close} }, 500);`,
      );
      const run = spawnSync(process.execPath, ["--import", "tsx", script], {
        cwd: ROOT,
        timeout: 30_000,
        encoding: "utf8",
      });
      expect(run.error, run.stderr).toBeUndefined(); // a timeout is an error
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toBe("");
    }
  });
});
