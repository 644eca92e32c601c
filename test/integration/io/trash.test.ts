// Deleting what a build replaced, in the background. A deletion started ahead (Trash.standby) waits, and deletes once
// let go or once the process that started it is gone. A replaced folder is deleted by one `rm` that may outlive the
// build command: later builds leave it to that rm while it runs (several would only compete for the disk) and finish
// the job when it is gone. Nothing is deleted beside the build's own writes.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { build as buildInProcess } from "../../../scripts/build.ts";
import { inspectOutput, openStore, Trash } from "../../../scripts/io/store.ts";
import { runBuild, storeEntries } from "../../helpers/build/publish.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";

const ROOT = join(import.meta.dirname, "../../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Bounded wait (10 s) for `done`. */
const eventually = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await sleep(100);
  return done();
};

describe("Trash in the background mode", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let out: string;
  beforeEach(async () => {
    dir = await tempDir();
    out = join(dir.path, "dist");
    openStore(await inspectOutput(out, join(dir.path, "content")));
  });
  afterEach(() => dir.remove());

  /** A folder of the store with a file in it, as a replaced list folder is. */
  const oldFolder = async (name: string) => {
    const path = join(`${out}.builds`, name);
    await mkdir(join(path, "v1"), { recursive: true });
    await writeFile(join(path, "v1", "page.json"), "{}");
    return path;
  };

  it("a deletion started ahead deletes nothing until it is let go, then everything, marker included", async () => {
    const trash = new Trash(await inspectOutput(out, join(dir.path, "content")), true);
    await trash.discard(await oldFolder("old-list"));
    const [trashed] = trashEntriesSync(`${out}.builds`);
    expect(trashed).toMatch(/^trash-\d+-1$/);
    await trash.standby();
    const folder = join(`${out}.builds`, trashed!);
    // The shell has started (its marker is written) and waits.
    expect(await eventually(() => existsSync(`${folder}.deleting`))).toBe(true);
    await sleep(500);
    expect(existsSync(join(folder, "v1", "page.json"))).toBe(true);
    await trash.empty();
    expect(await eventually(() => !existsSync(folder) && !existsSync(`${folder}.deleting`))).toBe(true);
  });

  it("a deletion started ahead goes ahead when the process that started it ends without letting it go", async () => {
    const folder = await oldFolder("old-list");
    const script = join(dir.path, "standby.mts");
    await writeFile(
      script,
      `import { inspectOutput, Trash } from ${JSON.stringify(join(ROOT, "scripts/io/store.ts"))};
      const trash = new Trash(await inspectOutput(${JSON.stringify(out)}, "/nonexistent-content"), true);
      await trash.discard(${JSON.stringify(folder)});
      await trash.standby();`,
    );
    const run = spawnSync(process.execPath, ["--import", "tsx", script], {
      cwd: ROOT,
      timeout: 30_000,
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(folder)).toBe(false); // moved into the trash at once
    expect(await eventually(() => trashEntriesSync(`${out}.builds`).length === 0)).toBe(true);
  });
});

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
    // That build's own rm deletes it in the background.
    expect(await eventually(() => !existsSync(trash))).toBe(true);
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

const trashEntriesSync = (store: string) => readdirSync(store).filter((e) => e.startsWith("trash-"));
