// B1: a build deletes or replaces only what a build made. Each refused --out is left byte-identical, the build
// says why in one line and exits 1; B6 for the build command's flags.
import { cp, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { runBuild } from "../../helpers/build/publish.ts";
import { fixture, repoRoot, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

describe("a build refuses an --out it did not make", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let content: string;
  beforeAll(async () => {
    dir = await tempDir();
    content = join(dir.path, "project/content");
    await cp(fixture("tiny"), content, { recursive: true });
    await writeFile(join(dir.path, "project/notes.txt"), "mine");
  });
  afterAll(() => dir.remove());

  /** Every file under `path` (or the file itself) with its bytes, plus the folder listing around it. */
  const snapshot = async (path: string) => {
    const s = await lstat(path);
    const around = (await readdir(join(path, ".."))).sort();
    return {
      around,
      body: s.isSymbolicLink()
        ? await readlink(path)
        : s.isDirectory()
          ? await hashTree(path)
          : await readFile(path, "utf8"),
    };
  };

  const cases: [string, () => Promise<string>, RegExp][] = [
    [
      "a folder with other files",
      async () => {
        const out = join(dir.path, "other");
        await mkdir(join(out, ".git"), { recursive: true });
        await writeFile(join(out, "keep.txt"), "keep");
        await writeFile(join(out, ".git/HEAD"), "ref");
        return out;
      },
      /the folder is not empty and no build made it/,
    ],
    [
      "a regular file",
      async () => {
        const out = join(dir.path, "file.json");
        await writeFile(out, "{}");
        return out;
      },
      /it is a file/,
    ],
    ["the content folder", async () => content, /it is the content folder/],
    ["a parent of the content folder", async () => join(dir.path, "project"), /it contains the content folder/],
    [
      "a symbolic link a build did not make",
      async () => {
        const out = join(dir.path, "link");
        await symlink(join(dir.path, "project"), out);
        return out;
      },
      /symbolic link that a build did not make/,
    ],
    [
      "a store folder a build did not make",
      async () => {
        const out = join(dir.path, "fresh");
        await mkdir(`${out}.builds`);
        await writeFile(join(`${out}.builds`, "photo.jpg"), "x");
        return out;
      },
      /fresh\.builds exists and was not made by a build/,
    ],
  ];

  for (const [name, make, message] of cases) {
    it(`refuses ${name}, leaving it byte-identical`, async () => {
      const out = await make();
      const store = name.startsWith("a store");
      const watched = store ? `${out}.builds` : out;
      const before = await snapshot(watched);
      await expect(build({ contentDir: content, outDir: out })).rejects.toThrow(message);
      expect(await snapshot(watched)).toEqual(before);
      if (!store) await expect(stat(`${out}.builds`)).rejects.toThrow(/ENOENT/);
    });
  }

  it("refuses the project folder (`--out .`) from the command line: one line, exit 1, nothing created", async () => {
    const before = (await readdir(repoRoot)).sort();
    const r = await runBuild(["--content", content, "--out", "."]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`refusing to build into ${repoRoot.replace(/\/$/, "")}: it is the project folder`);
    expect((await readdir(repoRoot)).sort()).toEqual(before);
    const json = await runBuild(["--content", content, "--out", join(dir.path, "file.json"), "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: false,
      error: expect.stringMatching(/^refusing to build into .*file\.json: it is a file/),
    });
  });

  it("an empty folder is built into, and becomes a link to the build", async () => {
    const out = join(dir.path, "empty");
    await mkdir(out);
    await build({ contentDir: content, outDir: out });
    expect((await lstat(out)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(join(out, "v1/categories.json"), "utf8")).data.length).toBeGreaterThan(0);
  });

  it("--help, and an unknown flag is one line with exit 2", async () => {
    const help = await runBuild(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run build -- \[options\]/);
    expect(help.stdout).toContain("--no-wait");
    const bad = await runBuild(["--compres"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toEqual([
      "unknown option --compres (did you mean --compress?) (usage: npm run build -- [options]; --help lists them)",
    ]);
    const badJson = await runBuild(["--compres", "--json"]);
    expect(badJson.code).toBe(2);
    expect(JSON.parse(badJson.stdout)).toMatchObject({ ok: false, error: expect.stringContaining("--compres") });
  });
});
