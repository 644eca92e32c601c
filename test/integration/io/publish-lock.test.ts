// B4: one build at a time writes an output; a second waits (or, with --no-wait, stops naming the holder);
// a lock left by a dead build is taken over.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { editJson, notices, runBuild, startBuild, storeEntries } from "../../helpers/build/publish.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

describe("the build lock", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let content: string;
  let out: string;
  beforeAll(async () => {
    dir = await tempDir();
    content = join(dir.path, "content");
    out = join(dir.path, "dist");
    await cp(fixture("tiny"), content, { recursive: true });
    await build({ contentDir: content, outDir: out });
  });
  afterAll(() => dir.remove());

  it("while a build holds the lock, --no-wait stops with one line naming it, and a waiting build says so once and goes on when it is released", async () => {
    const lock = join(`${out}.builds`, "lock");
    // This test process holds the lock: it is alive (and started before the lock), so the builds must respect it.
    const since = new Date().toISOString();
    await writeFile(lock, JSON.stringify({ pid: process.pid, started: since }), { flag: "wx" });
    try {
      const refused = await runBuild(["--content", content, "--out", out, "--no-wait", "--json"]);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toEqual({
        ok: false,
        error: `${out} is being built by process ${process.pid} (since ${since}); not waiting (--no-wait)`,
      });
      const waiting = startBuild(["--content", content, "--out", out]);
      // Bounded: at most 30 s for the build to start and say it waits.
      let stderr = "";
      waiting.stderr!.on("data", (d) => (stderr += d));
      for (let i = 0; i < 300 && !stderr.includes("waiting"); i++) await new Promise((r) => setTimeout(r, 100));
      expect(stderr).toBe(
        `${out} is being built by process ${process.pid} (since ${since}); waiting for it to finish…\n`,
      );
      await rm(lock);
      const done = await waiting.result;
      expect(done.code).toBe(0);
      expect(done.stdout).toMatch(/^built /);
    } finally {
      await rm(lock, { force: true });
    }
  });

  it("a lock left by a dead build is taken over", async () => {
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    await writeFile(join(`${out}.builds`, "lock"), JSON.stringify({ pid: dead, started: "2026-01-01T00:00:00.000Z" }));
    const result = await build({ contentDir: content, outDir: out });
    expect(result.mode).toBe("incremental");
    expect(await storeEntries(out)).not.toContain("lock");
  });

  it("a lock whose pid now belongs to a process started after it (a reused pid) is taken over", async () => {
    // On Linux /proc gives the process's start time; elsewhere a live pid is always respected.
    if (!existsSync("/proc/self/stat")) return;
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await writeFile(
        join(`${out}.builds`, "lock"),
        JSON.stringify({ pid: other.pid, started: "2026-01-01T00:00:00.000Z" }),
      );
      const result = await runBuild(["--content", content, "--out", out, "--no-wait"]);
      expect([result.code, notices(result.stderr)]).toEqual([0, ""]);
      expect(await storeEntries(out)).not.toContain("lock");
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("a lock naming a live pid with another start (a pid reused moments later) is taken over; its own start is respected", async () => {
    if (!existsSync("/proc/self/stat")) return;
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const ticks = Number(readFileSync(`/proc/${other.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]);
      const lock = join(`${out}.builds`, "lock");
      // Written now, by a process that started within the same second: only the start ticks tell them apart.
      const written = (startTicks: number) =>
        JSON.stringify({ pid: other.pid, started: new Date().toISOString(), startTicks });
      await writeFile(lock, written(ticks));
      const respected = await runBuild(["--content", content, "--out", out, "--no-wait"]);
      expect(respected.code).toBe(1);
      expect(respected.stderr).toContain(`is being built by process ${other.pid}`);
      await writeFile(lock, written(ticks - 1));
      const taken = await runBuild(["--content", content, "--out", out, "--no-wait"]);
      expect([taken.code, notices(taken.stderr)]).toEqual([0, ""]);
      expect(await storeEntries(out)).not.toContain("lock");
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("two builds started together: both finish, one after the other, and the tree is the content's", async () => {
    await editJson(join(content, "tools/quill.json"), (t) => (t.shortDescription = "Raced."));
    const [a, b] = await Promise.all([
      runBuild(["--content", content, "--out", out]),
      runBuild(["--content", content, "--out", out]),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    // If they overlapped (they nearly always do), exactly one waited; neither wrote over the other.
    expect([a.stderr, b.stderr].filter((e) => e.includes("waiting for it to finish")).length).toBeLessThanOrEqual(1);
    const fresh = join(dir.path, "fresh");
    await build({ contentDir: content, outDir: fresh, full: true });
    expect(await hashTree(out)).toEqual(await hashTree(fresh));
    const entries = await storeEntries(out);
    expect(entries.every((e) => /^g\d{6}$/.test(e)) && entries.length <= 2).toBe(true);
    expect(await readdir(dir.path)).toEqual(expect.arrayContaining(["content", "dist", "dist.builds"]));
  });
});
