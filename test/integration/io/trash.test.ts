// Background deletions started ahead (Trash.standby): the deleting process waits, and deletes once let go or once the
// process that started it is gone; nothing is deleted beside the build's own writes.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inspectOutput, openStore, Trash } from "../../../scripts/io/store.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";

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

const trashEntriesSync = (store: string) => readdirSync(store).filter((e) => e.startsWith("trash-"));
