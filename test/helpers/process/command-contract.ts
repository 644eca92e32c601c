// What every command of the project answers alike, as a user runs it (node through the launcher, from the repository):
// --help is its usage with exit 0; an unknown flag is one line naming it with exit 2, and no stack trace. The product's
// developer commands and bench's own share these tests.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../fs/dirs.ts";
import { launchArgs } from "./launch.ts";

/** Runs the command whose entry file is `entry` with `args`, to its end. */
export function runEntry(entry: string, args: string[]) {
  const r = spawnSync(process.execPath, launchArgs(entry, ...args), {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `text` is one line, no stack trace. */
export function expectOneLine(text: string): void {
  expect(text.trim().split("\n"), text).toHaveLength(1);
  expect(text).not.toMatch(/\n\s+at /);
}

/** The tests of --help and of an unknown flag, for each npm script of `commands` (its name → its entry file). */
export function commandContract(commands: Record<string, string>): void {
  describe.each(Object.keys(commands))("npm run %s", (command) => {
    it("--help prints its usage and options, exit 0", () => {
      const r = runEntry(commands[command]!, ["--help"]);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^usage: npm run ${command} --`));
      expect(r.stdout).toContain("--help");
    });

    it("an unknown flag is one line naming it, exit 2", () => {
      const r = runEntry(commands[command]!, ["--no-such-flag"]);
      expect(r.status).toBe(2);
      expectOneLine(r.stderr);
      expect(r.stderr).toContain("unknown option --no-such-flag");
    });
  });
}
