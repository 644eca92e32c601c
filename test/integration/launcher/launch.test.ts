// scripts/launcher/launch.cjs runs a command from a bundle cached in node_modules/.cache/msapi/: tested in a scratch
// project (the launcher and its cache copied in, esbuild and tsx linked), so the repository's cache is never touched.
import { execFile } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "../../helpers/fs/dirs.ts";

const exec = promisify(execFile);

describe("the command launcher", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let project: string;
  const launch = (...args: string[]) =>
    exec(process.execPath, ["scripts/launcher/launch.cjs", "scripts/hello.ts", ...args], { cwd: project }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  const writeGreeting = (word: string) =>
    writeFile(
      join(project, "scripts/lib/greeting.ts"),
      `export const greeting: string = ${JSON.stringify(word)};\nexport const here = import.meta.url;\n`,
    );

  beforeAll(async () => {
    dir = await tempDir("msapi-launch-");
    project = join(dir.path, "project");
    await mkdir(join(project, "scripts/launcher"), { recursive: true });
    await mkdir(join(project, "scripts/lib"), { recursive: true });
    await mkdir(join(project, "node_modules"), { recursive: true });
    for (const f of ["launch.cjs", "bundle-cache.cjs", "file-hashes.cjs", "project-cache.cjs"])
      await copyFile(join(repoRoot, "scripts/launcher", f), join(project, "scripts/launcher", f));
    await writeFile(join(project, "package-lock.json"), "{}");
    // ES modules, as the repository's own package.json says: what tsx runs them as when there is no bundle.
    await writeFile(join(project, "package.json"), JSON.stringify({ type: "module" }));
    for (const pkg of ["esbuild", "@esbuild", "tsx"])
      await symlink(join(repoRoot, "node_modules", pkg), join(project, "node_modules", pkg));
    await writeFile(
      join(project, "scripts/hello.ts"),
      [
        `import { greeting, here } from "./lib/greeting.ts";`,
        `const main: boolean = process.argv[1] === new URL(import.meta.url).pathname;`,
        `console.log(JSON.stringify({ greeting, here, main, args: process.argv.slice(2) }));`,
      ].join("\n"),
    );
    await writeGreeting("hello");
  });
  afterAll(() => dir.remove());

  it("runs the command from a cached bundle: its own arguments, entry point and module URLs, no loader note", async () => {
    const run = await launch("--flag", "x");
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      greeting: "hello",
      here: `file://${project}/scripts/lib/greeting.ts`,
      main: true,
      args: ["--flag", "x"],
    });
    const cached = await readdir(join(project, "node_modules/.cache/msapi"));
    expect(cached.filter((f) => f.endsWith(".cjs"))).toHaveLength(1);
  });

  it("rebuilds the bundle when a source it was built from changed", async () => {
    await writeGreeting("changed");
    expect(JSON.parse((await launch()).stdout).greeting).toBe("changed");
  });

  it("rebuilds a bundle whose file is gone though its record of inputs stayed (a cache cleaned by hand)", async () => {
    const cache = join(project, "node_modules/.cache/msapi");
    const bundles = (await readdir(cache)).filter((f) => f.endsWith(".cjs"));
    expect(bundles).toHaveLength(1);
    await rm(join(cache, bundles[0]!));
    const run = await launch();
    expect([run.code, run.stderr, JSON.parse(run.stdout).greeting]).toEqual([0, "", "changed"]);
  });

  it("remembers source hashes of this project only: entries of a copy sharing its node_modules are dropped", async () => {
    const memo = join(project, "node_modules/.cache/msapi/file-hashes.json");
    await writeFile(memo, JSON.stringify({ "/elsewhere/copy/scripts/hello.ts": ["1:2:3:4:5", "hash"] }));
    await writeGreeting("learned");
    // A file changed in the last two seconds is never remembered (file-hashes.cjs): this one must be older.
    await new Promise((r) => setTimeout(r, 2100));
    expect(JSON.parse((await launch()).stdout).greeting).toBe("learned");
    const saved = Object.keys(JSON.parse(await readFile(memo, "utf8")));
    expect(saved).toContain(join(project, "scripts/lib/greeting.ts"));
    expect(saved.filter((path) => !path.startsWith(`${project}/`))).toEqual([]);
  });

  it("without a bundle (a syntax error) runs through tsx, and says so in one line", async () => {
    await writeFile(join(project, "scripts/lib/greeting.ts"), "export const greeting = ;\n");
    const run = await launch();
    expect(run.code).not.toBe(0);
    expect(run.stderr.split("\n")[0]).toMatch(
      /^note: running scripts\/hello\.ts through tsx \(no bundle: Build failed with 1 error:\)$/,
    );
    await writeGreeting("fixed");
    const fixed = await launch();
    expect([fixed.stderr, JSON.parse(fixed.stdout).greeting]).toEqual(["", "fixed"]);
  });

  it("with a node_modules it cannot write (no cache folder can be made) runs through tsx, and says so in one line", async () => {
    const cache = join(project, "node_modules/.cache");
    await rm(cache, { recursive: true, force: true });
    // A file where the cache folder goes: mkdir fails for root too, as a read-only node_modules would for a user.
    await writeFile(cache, "");
    try {
      await writeGreeting("uncached");
      const run = await launch("--x");
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/^note: running scripts\/hello\.ts through tsx \(no bundle: .*\)\n$/);
      expect(JSON.parse(run.stdout)).toMatchObject({ greeting: "uncached", main: true, args: ["--x"] });
    } finally {
      await rm(cache, { force: true });
    }
  });
});
