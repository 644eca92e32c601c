// B3 and B6 on a full disk: a build that runs out of space says so in one line naming the file, removes its
// working folder and leaves the previous tree published and byte-identical. Needs a small tmpfs: where it cannot
// be mounted (no privilege) the test is skipped, loudly; where it can, it runs (in CI too).
import { spawnSync } from "node:child_process";
import { cp, mkdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { runBuild, storeEntries } from "../../helpers/build/publish.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

const dir = await tempDir("msapi-full-disk-");
const mnt = join(dir.path, "mnt");
await mkdir(mnt);
// The tiny catalog's tree takes about 6.3 MB on tmpfs (1,536 files of at least a 4 KB page): room for one tree, not two.
const mount = spawnSync("mount", ["-t", "tmpfs", "-o", "size=10m", "tmpfs", mnt], { encoding: "utf8" });
const mounted = mount.status === 0;
// Under CI (root, as the workflow runs) a skipped full-disk test would hide a missing check: it must run there.
if (!mounted && process.env.CI === "true")
  throw new Error(`cannot mount a tmpfs under CI: ${(mount.stderr || String(mount.error)).trim()}`);
if (!mounted)
  console.warn(
    `SKIPPED full-disk build tests: cannot mount a tmpfs here (${(mount.stderr || String(mount.error)).trim()})`,
  );

describe.skipIf(!mounted)("a build on a full disk", () => {
  const content = join(dir.path, "content");
  const out = join(mnt, "dist");
  let before: Map<string, string>;
  let link: string;
  beforeAll(async () => {
    await cp(fixture("tiny"), content, { recursive: true });
    await build({ contentDir: content, outDir: out });
    before = await hashTree(out);
    link = await readlink(out);
  });
  afterAll(async () => {
    spawnSync("umount", [mnt]);
    await dir.remove();
  });

  const intact = async () => {
    expect(await readlink(out)).toBe(link);
    expect(await hashTree(out)).toEqual(before);
    expect(await storeEntries(out)).toEqual([link.split("/").pop()]); // no working folder, no lock
  };

  it("a full build: one line naming the file, exit 1, previous tree intact; --json is one object", async () => {
    const r = await runBuild(["--content", content, "--out", out, "--full"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(
      new RegExp(`^no space left on the device writing ${mnt}/dist\\.builds/tmp-\\d+/\\S+$`),
    );
    await intact();
    const json = await runBuild(["--content", content, "--out", out, "--full", "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: false,
      error: expect.stringMatching(/^no space left on the device writing /),
    });
    await intact();
  });

  it("an incremental build (ten tools inserted): the error names the file, the previous tree is intact, and the next build works", async () => {
    const model = JSON.parse(await readFile(join(content, "tools/quill.json"), "utf8"));
    for (let i = 0; i < 10; i++)
      await writeFile(
        join(content, `tools/added-${i}.json`),
        JSON.stringify({ ...model, name: `Added ${i}`, slug: `added-${i}` }),
      );
    await expect(build({ contentDir: content, outDir: out })).rejects.toMatchObject({
      code: "ENOSPC",
      path: expect.stringContaining(`${mnt}/dist.builds/`),
    });
    await intact();
    for (let i = 0; i < 10; i++) await rm(join(content, `tools/added-${i}.json`));
    const next = await build({ contentDir: content, outDir: out });
    expect(next.mode).toBe("incremental");
    expect(await hashTree(out)).toEqual(before);
  });
});
