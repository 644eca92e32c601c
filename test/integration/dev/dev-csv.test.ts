// `npm run dev -- --csv DIR` on copies of the tiny fixture and its CSV files: a save of a sheet is imported, built and
// served; a bad cell prints its error while the last good build keeps serving; a row cut from a sheet never deletes
// its content file.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { cp, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, repoRoot, tempDir } from "../../helpers/fs/dirs.ts";
import { launchArgs } from "../../helpers/process/launch.ts";
import { waitFor } from "../../helpers/process/wait-for.ts";

describe("npm run dev -- --csv DIR", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let child: ChildProcess;
  let stdout = "";
  let stderr = "";
  let api: string;
  let csv: string;
  let content: string;

  beforeAll(async () => {
    dir = await tempDir("msapi-dev-csv-");
    content = join(dir.path, "content");
    csv = join(dir.path, "csv");
    await cp(fixture("tiny"), content, { recursive: true });
    await cp(fixture("csv/tiny"), csv, { recursive: true });
    // its own process group, so that the launcher and what it starts stop together
    child = spawn(
      process.execPath,
      launchArgs("scripts/commands/dev.ts", "--csv", csv, "--content", content, "--out", join(dir.path, "dist")),
      { cwd: repoRoot, env: { ...process.env, PORT: "0", HOST: "127.0.0.1" }, detached: true },
    );
    child.stdout!.on("data", (c: Buffer) => (stdout += c));
    child.stderr!.on("data", (c: Buffer) => (stderr += c));
    api = await waitFor("the API URL", () => /API: (http:\/\/\S+\/v1)/.exec(stdout)?.[1], 60_000);
    await waitFor("the watcher", () => (stdout.includes("for changes") ? true : undefined));
  }, 90_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = once(child, "exit");
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
    await dir?.remove();
  });

  const proPrice = async () => {
    const res = await fetch(`${api}/software/alpha-mail`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { pricingPlans: { price: number | null }[] } }).data.pricingPlans[1]!.price;
  };
  const editSheet = async (file: string, change: (text: string) => string) => {
    const path = join(csv, file);
    const text = await readFile(path, "utf8");
    const changed = change(text);
    expect(changed).not.toBe(text);
    await writeFile(path, changed);
  };

  it("imports each save, keeps the last good build through a bad cell, and never deletes a file", async () => {
    expect(stdout).toContain("no change"); // the start's import: the CSV files are the content's own export
    expect(await proPrice()).toBe(19);

    await editSheet("plans.csv", (t) => t.replace('"alpha-mail","Pro",19,', '"alpha-mail","Pro",21,'));
    await waitFor("the new price to be served", async () => ((await proPrice()) === 21 ? true : undefined));
    expect(stdout).toContain("alpha-mail: pricingPlans[1].price: 19 → 21");

    const errorsBefore = stderr.length;
    await editSheet("plans.csv", (t) => t.replace('"alpha-mail","Pro",21,', '"alpha-mail","Pro",twenty-one,'));
    const printed = await waitFor("the bad cell's error", () => {
      const since = stderr.slice(errorsBefore);
      return /last good build/.test(since) ? since : undefined;
    });
    expect(printed).toMatch(/plans\.csv:3: price: expected a number \(like 12\.5\) or an empty cell, got "twenty-one"/);
    expect(printed).not.toMatch(/\n\s+at /); // no stack trace
    expect(await proPrice()).toBe(21);

    // The cell fixed, and zeta-crm's rows cut (a sheet saved half-way): its file stays, and is still served.
    const outputBefore = stdout.length;
    await editSheet("plans.csv", (t) => t.replace("twenty-one", "21").replace(/"zeta-crm",.*\r\n/, ""));
    await editSheet("tools.csv", (t) => t.replace(/"zeta-crm",[\s\S]*$/, ""));
    await waitFor("the kept file to be reported", () =>
      /no row any more \(their files are kept; content:import removes them\): zeta-crm/.test(stdout.slice(outputBefore))
        ? true
        : undefined,
    );
    expect((await stat(join(content, "tools/zeta-crm.json"))).isFile()).toBe(true);
    expect((await fetch(`${api}/software/zeta-crm`)).status).toBe(200);
    expect(await proPrice()).toBe(21);
    expect(child.exitCode).toBeNull();
  }, 60_000);
});

describe("npm run dev -- --csv with no such folder", () => {
  it("is one line and exit 1, before anything is built", async () => {
    const dir = await tempDir("msapi-dev-csv-");
    try {
      const run = promisify(execFile)(
        process.execPath,
        launchArgs(
          "scripts/commands/dev.ts",
          "--csv",
          join(dir.path, "nowhere"),
          "--content",
          join(dir.path, "content"),
        ),
        { cwd: repoRoot, env: { ...process.env, PORT: "0", HOST: "127.0.0.1" } },
      );
      const failed = (await run.then(
        () => undefined,
        (e: unknown) => e,
      )) as { code: number; stdout: string; stderr: string } | undefined;
      expect(failed?.code).toBe(1);
      expect(failed?.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          /--csv \S+nowhere is not a folder: give the folder content:export wrote the CSV files into$/,
        ),
      ]);
      await expect(stat(join(dir.path, "content"))).rejects.toThrow();
    } finally {
      await dir.remove();
    }
  });
});
