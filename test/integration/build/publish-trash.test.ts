// A replaced folder is deleted by one `rm` in the background, which may outlive the build command: later builds
// leave it to that rm while it runs (several would only compete for the disk) and finish the job when it is gone.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build as buildInProcess } from "../../../scripts/build.ts";
import { runBuild, storeEntries } from "../../helpers/build/publish.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";

describe("trash folders of earlier builds", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let content: string;
  let out: string;
  const build = async () => {
    const result = await runBuild(["--content", content, "--out", out]);
    expect(result.code, result.stderr).toBe(0);
  };
  beforeAll(async () => {
    dir = await tempDir();
    content = join(dir.path, "content");
    out = join(dir.path, "dist");
    await cp(fixture("tiny"), content, { recursive: true });
    await build();
  });
  afterAll(() => dir.remove());

  it("are left to the rm still deleting them, and deleted by the next build once it has stopped", async () => {
    const trash = join(`${out}.builds`, "trash-1-1");
    await mkdir(join(trash, "v1"), { recursive: true });
    await writeFile(join(trash, "v1", "page.json"), "{}");
    // Stands in for the rm an earlier build started: a live process whose command line names the folder.
    const deleter = spawn("sh", ["-c", "sleep 60", trash], { stdio: "ignore" });
    await writeFile(`${trash}.deleting`, String(deleter.pid));
    try {
      await build();
      expect(existsSync(trash)).toBe(true);
    } finally {
      deleter.kill("SIGKILL");
      await new Promise((r) => deleter.once("exit", r));
    }
    await build();
    // That build's own rm deletes it in the background: bounded wait of 10 s.
    for (let i = 0; i < 100 && existsSync(trash); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(trash)).toBe(false);
    await build();
    expect((await storeEntries(out)).filter((e) => !/^g\d{6}$/.test(e))).toEqual([]);
  });

  it("left by a dead rm go with their marker in a build that waits for its deletions", async () => {
    const trash = join(`${out}.builds`, "trash-2-1");
    await mkdir(join(trash, "v1"), { recursive: true });
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    await writeFile(`${trash}.deleting`, String(dead));
    await buildInProcess({ contentDir: content, outDir: out });
    expect((await storeEntries(out)).filter((e) => !/^g\d{6}$/.test(e))).toEqual([]);
  });

  it("a background deletion takes its marker with it: once it is done, nothing but generations is left", async () => {
    // What a killed build leaves: its working folder. The next build trashes it and an rm deletes it in the background.
    await mkdir(join(`${out}.builds`, "tmp-99999", "v1"), { recursive: true });
    await writeFile(join(`${out}.builds`, "tmp-99999", "v1", "page.json"), "{}");
    await build();
    const leftovers = async () => (await storeEntries(out)).filter((e) => !/^g\d{6}$/.test(e));
    // Bounded wait for that rm: 10 s.
    for (let i = 0; i < 100 && (await leftovers()).some((e) => !e.endsWith(".deleting")); i++)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 200));
    expect(await leftovers()).toEqual([]);
  });
});
