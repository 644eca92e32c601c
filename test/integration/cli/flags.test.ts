// Every npm script answers --help and changes nothing; a misspelled option suggests the nearest; an option npm took
// for itself (written without --) is named, with the form to use. Through real npm, as a user types it.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { nearestOption } from "../../../scripts/cli/command.ts";
import { mapPool } from "../../helpers/conformance/pool.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";

const run = promisify(execFile);
const scripts: Record<string, string> = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).scripts;

/** Scripts whose --help is another program's (tsc, vitest, biome, redocly), reached only after work worth skipping. */
const NOT_RUN: Record<string, string> = {
  test: "type checks and lints (read-only, half a minute) before vitest prints its help",
};

async function npm(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("npm", args, { cwd: repoRoot, timeout: 120_000, maxBuffer: 8 << 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
  }
}

/** What a command with side effects would change: tracked files, and the build's output folders. */
async function footprint(): Promise<string> {
  const { stdout } = await run("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: repoRoot });
  const outputs = ["dist", "dist.builds", "dist.public", "dist.r2"].map((p) => `${p}:${existsSync(join(repoRoot, p))}`);
  return `${stdout}${outputs.join(" ")}`;
}

describe("--help", () => {
  it("every npm script answers --help, exit 0, and changes nothing: npm start builds nothing first", async () => {
    const before = await footprint();
    const run = Object.keys(scripts).filter((script) => !NOT_RUN[script]);
    // Three at a time: each waits mostly on npm's and Node's start-up, alone it took 80 s.
    const answers = await mapPool(run, 3, (script) => npm(["run", "--silent", script, "--", "--help"]));
    for (const [i, { code, stdout, stderr }] of answers.entries()) {
      expect(code, `npm run ${run[i]} -- --help: ${stderr}`).toBe(0);
      expect(`${stdout}${stderr}`, `npm run ${run[i]} -- --help`).toMatch(/usage|options/i);
    }
    expect(run).toContain("start");
    expect(await footprint()).toBe(before);
  }, 300_000);
});

describe("options", () => {
  it("a misspelled option is one line suggesting the nearest, exit 2", async () => {
    const { code, stderr } = await npm(["run", "--silent", "build", "--", "--strcit"]);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toEqual([
      "unknown option --strcit (did you mean --strict?) (usage: npm run build -- [options]; --help lists them)",
    ]);
  });

  it("the nearest option is within a third of its length, or one it begins", () => {
    const names = ["content", "out", "json", "full", "compress", "strict", "no-wait", "help"];
    expect(nearestOption("--ful", names)).toBe("full");
    expect(nearestOption("--jsn", names)).toBe("json");
    expect(nearestOption("--comp", names)).toBe("compress");
    expect(nearestOption("--hepl", names)).toBe("help");
    expect(nearestOption("--workers", names)).toBeUndefined();
  });

  it("an option npm took for itself (no --) is named with the form that works, exit 2, before anything runs", async () => {
    const tool = await npm(["run", "--silent", "new:tool", "--name", "Foo"]);
    expect(tool.code).not.toBe(0);
    expect(tool.stderr).toContain(
      "npm took --name Foo for itself: put the command's options after --, as in: npm run new:tool -- --name Foo",
    );
    const start = await npm(["start", "--workers", "1"]);
    expect(start.stderr).toContain("as in: npm start -- --workers 1");
    expect(existsSync(join(repoRoot, "content/tools/foo.json"))).toBe(false);
  });
});
