// The developer commands (catalog:generate, schemas) behave like every other command: --help, an unknown flag or a
// bad value as one line with exit 2, a refused folder as one line with exit 1, no stack trace. bench's own commands
// are tested in bench/test/commands.test.ts.
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/fs/dirs.ts";
import { commandContract, expectOneLine, runEntry } from "../../helpers/process/command-contract.ts";

const COMMANDS = {
  "catalog:generate": "scripts/commands/catalog-generate.ts",
  schemas: "scripts/commands/schemas.ts",
} as const;

const run = (command: keyof typeof COMMANDS, args: string[]) => runEntry(COMMANDS[command], args);

commandContract(COMMANDS);

describe("bad values and refused folders", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir("msapi-cli-");
  });
  afterAll(() => dir?.remove());

  it("catalog:generate: a bad number is one line, exit 2", () => {
    const r = run("catalog:generate", ["--tools", "ten", "--out", join(dir.path, "never")]);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr);
    expect(existsSync(join(dir.path, "never"))).toBe(false);
  });

  it("catalog:generate writes a catalog, replaces it on a second run, and refuses a folder holding anything else", async () => {
    const out = join(dir.path, "catalog");
    expect(run("catalog:generate", ["--tools", "4", "--categories", "2", "--out", out]).status).toBe(0);
    expect((await readdir(join(out, "tools"))).length).toBe(4);
    expect(run("catalog:generate", ["--tools", "2", "--categories", "2", "--out", out]).status).toBe(0);
    expect((await readdir(join(out, "tools"))).length).toBe(2);

    const precious = join(dir.path, "precious");
    await mkdir(precious);
    await writeFile(join(precious, "notes.txt"), "keep me");
    const r = run("catalog:generate", ["--tools", "2", "--out", precious]);
    expect(r.status).toBe(1);
    expectOneLine(r.stderr);
    expect(r.stderr).toContain("holds more than a catalog");
    expect(await readdir(precious)).toEqual(["notes.txt"]);
  });

  it("catalog:generate refuses the repository's own content/", () => {
    const r = run("catalog:generate", ["--tools", "1", "--out", "content"]);
    expect(r.status).toBe(1);
    expectOneLine(r.stderr);
    expect(r.stderr).toContain("is the sample catalog");
  });
});
