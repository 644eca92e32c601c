import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeOutput } from "../../../scripts/io/write-output.ts";
import type { OutputFile } from "../../../scripts/render/output.ts";
import { tempDir } from "../../helpers/dirs.ts";
import { hashTree } from "../../helpers/tree.ts";

describe("writeOutput: the one writer of dist/", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let dist: string;
  beforeEach(async () => {
    dir = await tempDir();
    dist = join(dir.path, "dist");
    await mkdir(join(dist, "old"), { recursive: true });
    await writeFile(join(dist, "old/file.json"), "previous build");
  });
  afterEach(() => dir.remove());

  it("replaces the previous tree whole: old files are gone, new ones are there", async () => {
    const summary = await writeOutput(dist, [
      { path: "a/b.json", body: "{}" },
      { path: "c.json", body: new Uint8Array([123, 125]) },
    ]);
    expect(summary).toEqual({ files: 2, bytes: 4 });
    expect([...(await hashTree(dist)).keys()]).toEqual(["a/b.json", "c.json"]);
    expect(await readdir(dir.path)).toEqual(["dist"]); // no temporary folder left beside it
  });

  it("a failure while rendering leaves the previous tree byte-identical and no temporary folder", async () => {
    const before = await hashTree(dist);
    function* failing(): Generator<OutputFile> {
      yield { path: "x.json", body: "{}" };
      throw new Error("render failed");
    }
    await expect(writeOutput(dist, failing())).rejects.toThrow("render failed");
    expect(await hashTree(dist)).toEqual(before);
    expect(await readdir(dir.path)).toEqual(["dist"]);
  });

  it("refuses two outputs for one path instead of silently overwriting", async () => {
    await expect(writeOutput(dist, [{ path: "x.json", body: "1" }, { path: "x.json", body: "2" }])).rejects.toThrow("two outputs write x.json");
  });
});
