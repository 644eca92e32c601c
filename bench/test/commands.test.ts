// bench's commands (bench, bench:chart) behave like every other command: --help, an unknown flag or a bad value as
// one line with exit 2, no stack trace, nothing built; `bench --report` prints what bench/results.json holds.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../scripts/cli/command.ts";
import { repoRoot } from "../../test/helpers/fs/dirs.ts";
import { commandContract, expectOneLine, runEntry } from "../../test/helpers/process/command-contract.ts";
import { parseBenchOptions } from "../options.ts";

const COMMANDS = {
  bench: "bench/run.ts",
  "bench:chart": "bench/chart.ts",
} as const;

const run = (command: keyof typeof COMMANDS, args: string[]) => runEntry(COMMANDS[command], args);

commandContract(COMMANDS);

describe("npm run bench: bad values", () => {
  it("a bad size, step or count is a one-line usage error (exit 2) before anything is built", () => {
    for (const args of [
      ["--sizes", "0"],
      ["--sizes", "1e3"],
      ["--only", "deploy"],
      ["--rounds", "two"],
    ]) {
      let error: unknown;
      try {
        parseBenchOptions(args);
      } catch (e) {
        error = e;
      }
      expect(error, args.join(" ")).toBeInstanceOf(UserError);
      expect((error as UserError).exitCode).toBe(2);
      expect((error as UserError).message).not.toContain("\n");
    }
    // and as a process: the line on stderr, exit 2
    const r = run("bench", ["--sizes", "0"]);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr);
  });
});

describe("npm run bench -- --report", () => {
  const results = join(repoRoot, "bench/results.json");

  it("prints the tables of bench/results.json, each section's date first, and writes nothing", () => {
    const before = readFileSync(results, "utf8");
    const r = run("bench", ["--report"]);
    expect(r.status, r.stderr).toBe(0);
    const recorded = JSON.parse(before) as { build: { generatedAt: string } };
    expect(r.stdout).toContain("RECORDED in bench/results.json");
    expect(r.stdout).toContain(`build: measured ${recorded.build.generatedAt.slice(0, 10)}`);
    for (const title of ["BUILD (", "INCREMENTAL (", "SERVE (", "TARGETS\n"]) expect(r.stdout).toContain(title);
    expect(readFileSync(results, "utf8")).toBe(before);
  });

  it("--only keeps the steps it names", () => {
    const r = run("bench", ["--report", "--only", "build"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("BUILD (");
    expect(r.stdout).not.toContain("INCREMENTAL (");
    expect(r.stdout).not.toContain("incremental n=");
  });

  it("refuses a flag that shapes a run, in one line (exit 2)", () => {
    for (const flag of ["--check", "--sizes=100", "--keep"]) {
      let error: unknown;
      try {
        parseBenchOptions(["--report", ...flag.split(" ")]);
      } catch (e) {
        error = e;
      }
      expect(error, flag).toBeInstanceOf(UserError);
      expect((error as UserError).exitCode).toBe(2);
      expect((error as UserError).message).toBe(`--report runs nothing: ${flag.split("=")[0]} does not apply`);
    }
  });
});
