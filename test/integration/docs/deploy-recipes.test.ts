// The deploy recipes work as written: the GitHub Pages workflow and netlify.toml parse, their commands are run
// as written in a scratch copy of the repository, and the folder each one publishes holds what the host should
// serve and nothing internal. (What happens on GitHub's and Netlify's machines cannot be run offline.)
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check, makeScratch, plan, runInScratch } from "../../helpers/docs/command-checks.ts";
import { type DocCommand, simpleCommands } from "../../helpers/docs/shell-commands.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";

const run = promisify(execFile);

/** YAML and TOML read by Python's standard parsers (PyYAML, tomllib), printed back as JSON. */
async function parseWithPython(kind: "yaml" | "toml", file: string): Promise<any> {
  const code =
    kind === "yaml"
      ? "import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))"
      : "import json,sys,tomllib; print(json.dumps(tomllib.load(open(sys.argv[1],'rb'))))";
  const { stdout } = await run("/usr/bin/python3", ["-c", code, join(repoRoot, file)]);
  return JSON.parse(stdout);
}

const engines: string = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).engines.node;
// npm's own semver (installed with the dev tools; no type declarations).
const semver = createRequire(import.meta.url)("semver") as { satisfies(version: string, range: string): boolean };

/** The commands of a recipe's shell lines, as the docs-commands test sees them. */
const commandsOf = (where: string, script: string): DocCommand[] =>
  script
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .flatMap((line) => simpleCommands(where, line));

/** Runs (or, when they cannot run offline, checks) each command in order, as CI would. */
async function runRecipe(commands: DocCommand[], scratch: string): Promise<void> {
  for (const command of commands) {
    const decided = plan(command);
    await check(command);
    if (decided.run) await runInScratch(command, scratch);
  }
}

/** The published folder holds the site and nothing internal. */
async function expectPublishable(folder: string, hostFiles: string[]): Promise<void> {
  const files = await fg("**", { cwd: folder, dot: true, onlyFiles: true });
  expect(files).toEqual(
    expect.arrayContaining([
      "index.html",
      "404.html",
      "v1/categories.json",
      "v1/openapi.json",
      "errors/not_found.json",
      ...hostFiles,
    ]),
  );
  const internal = files.filter((f) =>
    /^(routes\.json|\.build-manifest\.json|serve\.json|nginx\/|cloudflare\/|wrangler)|\.(br|gz)$|(^|\/)\./.test(f),
  );
  expect(internal).toEqual([]);
}

let scratch: Awaited<ReturnType<typeof makeScratch>>;
beforeAll(async () => {
  scratch = await makeScratch();
});
afterAll(() => scratch?.remove());

describe("GitHub Pages: .github/workflows/pages.yml", () => {
  let workflow: any;
  beforeAll(async () => {
    workflow = await parseWithPython("yaml", ".github/workflows/pages.yml");
  });

  it("deploys with the Pages actions, with the permissions they need", () => {
    expect(workflow.permissions).toMatchObject({ pages: "write", "id-token": "write" });
    const uses = Object.values<any>(workflow.jobs).flatMap((job) => job.steps.map((s: any) => s.uses).filter(Boolean));
    expect(uses).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^actions\/upload-pages-artifact@/),
        expect.stringMatching(/^actions\/deploy-pages@/),
      ]),
    );
    expect(workflow.jobs.deploy.environment.name).toBe("github-pages");
  });

  it("runs on a supported Node", () => {
    const setup = workflow.jobs.build.steps.find((s: any) => String(s.uses).startsWith("actions/setup-node@"));
    expect(semver.satisfies(`${setup.with["node-version"]}.99.0`, engines)).toBe(true);
  });

  it("its run steps, run as written, publish a folder with the site and nothing internal", async () => {
    const steps = workflow.jobs.build.steps;
    const commands = steps.filter((s: any) => s.run).flatMap((s: any) => commandsOf("pages.yml", s.run));
    await runRecipe(commands, scratch.path);
    const upload = steps.find((s: any) => String(s.uses).startsWith("actions/upload-pages-artifact@"));
    await expectPublishable(join(scratch.path, upload.with.path), []);
  }, 600_000);
});

describe("CI: .github/workflows/ci.yml", () => {
  it("tests every Node line engines allows, and runs npm test", async () => {
    const workflow = await parseWithPython("yaml", ".github/workflows/ci.yml");
    const versions: number[] = workflow.jobs.test.strategy.matrix.node;
    expect(versions).toEqual(expect.arrayContaining([20, 22, 24]));
    for (const v of versions) expect(semver.satisfies(`${v}.99.0`, engines), `Node ${v}`).toBe(true);
    const runs: string[] = workflow.jobs.test.steps.filter((s: any) => s.run).map((s: any) => s.run as string);
    expect(runs).toContain("npm test");
    for (const command of runs.flatMap((r) => commandsOf("ci.yml", r)).filter((c) => c.argv[0] === "npm"))
      await check(command);
  });
});

describe("Netlify: netlify.toml", () => {
  it("its build command, run as written, fills the publish folder with the site, _redirects and _headers, and nothing internal", async () => {
    const config = await parseWithPython("toml", "netlify.toml");
    expect(semver.satisfies(`${config.build.environment.NODE_VERSION}.99.0`, engines)).toBe(true);
    await runRecipe(commandsOf("netlify.toml", config.build.command), scratch.path);
    await expectPublishable(join(scratch.path, config.build.publish), ["_redirects", "_headers"]);
  }, 600_000);
});
