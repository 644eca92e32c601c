// Plans, checks and runs shell commands written in the docs and the deploy recipes (see docs-commands.test.ts).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdtemp, readdir, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import { repoRoot } from "../fs/dirs.ts";
import { type DocCommand, longFlags, npmRun } from "./shell-commands.ts";

const run = promisify(execFile);
const scripts: Record<string, string> = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).scripts;

/** Scripts the test runs as written, in the scratch copy (their output lands there, never in the repository). */
const RUN_SCRIPTS = new Set([
  "build",
  "validate",
  "export",
  "new:tool",
  "new:category",
  "content:export",
  "content:import",
]);

/** Scripts only checked, and why they are not run. `--help` of every script is run whatever its entry. */
const CHECK_ONLY_SCRIPTS: Record<string, string> = {
  start: "builds and serves until stopped: test/integration/docs/omit-dev-start.test.ts runs it from a clean clone",
  serve: "serves until stopped: the conformance suite starts the same server",
  dev: "watches and serves until stopped: test/integration/dev/ runs it",
  "start:nginx": "runs nginx until stopped: the conformance suite starts it",
  "start:cloudflare": "runs workerd until stopped: the conformance suite starts it",
  mcp: "an MCP server on standard input and output, started by its client: its own tests run it",
  "upload:r2": "fills a local R2 bucket: the Cloudflare tests run it",
  mirror: "needs a running API to copy: test/integration/mirror/ runs it against the Node server, nginx and the Worker",
  bench: "minutes of builds and load tests: never run by tests",
  "bench:large": "minutes of builds and load tests: never run by tests",
  "test:conformance": "the conformance suite itself: npm test runs it",
  schemas: "rewrites schemas/ in the repository (the check mode, `-- --check`, is run)",
  "catalog:generate": "a large catalog takes minutes (run when --tools is 100 or less)",
  "openapi:lint": "needs a dist/ in the repository: test/integration/render/redocly-lint.test.ts runs the same lint",
  "openapi:types":
    "rewrites test/helpers/openapi/client/api.ts: test/integration/render/typed-client.test.ts checks it",
  typecheck: "npm test runs it",
};

/** npx packages only checked (installed, flags listed by their --help), and why they are not run. */
const CHECK_ONLY_NPX: Record<string, string> = {
  serve: "serves until stopped: the conformance suite starts it (docs/hosts/static-hosts.md)",
  wrangler: "deploys to Cloudflare: needs an account and network",
  "openapi-typescript": "reads a deployed API's description over the network: typed-client.test.ts runs it on a build",
  redocly: "needs a dist/ in the repository: test/integration/render/redocly-lint.test.ts runs the same lint",
  vitest: "the test runner: npm test runs these files",
  tsx: "a script of this repository: its own test runs it",
};

/** npx packages the test runs as written, in the scratch copy (the outside validator's one-liners). */
const RUN_NPX = new Set(["ajv", "ajv-cli"]);

/** Other programs only checked, and why. */
const CHECK_ONLY_PROGRAMS: Record<string, string> = {
  curl: "needs a running server",
  aws: "deploys to S3: needs an account and network",
  netlify: "deploys to Netlify: needs an account and network",
  nginx: "reloads the system's nginx",
  git: "changes a repository",
  cd: "moves the shell: meaningless alone",
  rm: "removes the user's files",
};

/** npm commands other than `npm run`. */
const CHECK_ONLY_NPM: Record<string, string> = {
  ci: "installs dependencies: CI and test/integration/docs/omit-dev-start.test.ts run it",
  start: CHECK_ONLY_SCRIPTS.start!,
  test: "the test suite itself",
};

/**
 * What the scratch copy copies rather than links: content/ (commands write into it), and the code and its config
 * (a script started through a linked path would not see itself as the entry point and do nothing).
 */
const COPIED = new Set(["content", "scripts", "schemas", "package.json", "package-lock.json", "tsconfig.json"]);

/** A scratch copy of the repository: code and content copied, node_modules and the rest linked. */
export async function makeScratch(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), "msapi-docs-"));
  for (const entry of await readdir(repoRoot)) {
    if (entry === ".git" || entry === "tmp" || entry === "dist" || entry.startsWith("dist.")) continue;
    if (COPIED.has(entry)) await cp(join(repoRoot, entry), join(path, entry), { recursive: true });
    else await symlink(join(repoRoot, entry), join(path, entry));
  }
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** --help texts by command (`npm run serve`, `npx serve`: the script and the package are not one program). */
const helps = new Map<string, Promise<string>>();

/** `--help` of an npm script, run once (it is cheap and read-only). */
function scriptHelp(script: string): Promise<string> {
  const key = `npm run ${script}`;
  if (!helps.has(key)) {
    helps.set(
      key,
      run("npm", ["run", "--silent", script, "--", "--help"], { cwd: repoRoot }).then(({ stdout }) => stdout),
    );
  }
  return helps.get(key)!;
}

/** `--help` of an installed npx binary, with the subcommand words the doc gives. */
function binHelp(bin: string, words: string[]): Promise<string> {
  const key = ["npx", bin, ...words].join(" ");
  if (!helps.has(key)) {
    helps.set(
      key,
      run(join(repoRoot, "node_modules/.bin", bin), [...words, "--help"], { cwd: repoRoot, timeout: 60_000 }).then(
        ({ stdout, stderr }) => stdout + stderr,
        (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}${e.stderr ?? ""}`,
      ),
    );
  }
  return helps.get(key)!;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const insideScratch = (args: string[]) =>
  args.every((a) => !isAbsolute(a.replace(/^--[\w-]+=/, "")) && !a.split("/").includes(".."));
const flagValue = (args: string[], flag: string) => {
  const i = args.indexOf(`--${flag}`);
  return i >= 0 ? args[i + 1] : args.find((a) => a.startsWith(`--${flag}=`))?.split("=")[1];
};

/** How the test treats a command: run it (in the scratch copy or, for --help, anywhere), or only check it. */
export type Plan = { run: true } | { run: false; reason: string };

export function plan(command: DocCommand): Plan {
  const [program, ...rest] = command.argv;
  const npm = npmRun(command.argv);
  if (npm) {
    if (npm.args.includes("--help")) return { run: true };
    if (npm.script === "schemas" && npm.args.includes("--check")) return { run: true };
    if (
      npm.script === "catalog:generate" &&
      Number(flagValue(npm.args, "tools") ?? Infinity) <= 100 &&
      insideScratch(npm.args)
    )
      return { run: true };
    if (RUN_SCRIPTS.has(npm.script) && insideScratch(npm.args)) return { run: true };
    const reason =
      CHECK_ONLY_SCRIPTS[npm.script] ?? (RUN_SCRIPTS.has(npm.script) ? "writes outside the scratch copy" : undefined);
    if (reason) return { run: false, reason };
    throw new Error(
      `${command.where}: npm run ${npm.script} is neither run nor listed in CHECK_ONLY_SCRIPTS with a reason`,
    );
  }
  if (program === "npm") {
    const reason = CHECK_ONLY_NPM[rest[0] ?? ""];
    if (reason) return { run: false, reason };
    throw new Error(`${command.where}: npm ${rest[0]} is not known: list it in CHECK_ONLY_NPM with the reason`);
  }
  if (program === "npx") {
    const pkg = (rest.find((a) => !a.startsWith("-")) ?? "").replace(/(.)@.*$/, "$1");
    if (RUN_NPX.has(pkg) && insideScratch(rest)) return { run: true };
    const reason = CHECK_ONLY_NPX[pkg];
    if (reason) return { run: false, reason };
    throw new Error(`${command.where}: npx ${pkg} is not known: list it in CHECK_ONLY_NPX with the reason`);
  }
  const reason = CHECK_ONLY_PROGRAMS[program ?? ""];
  if (reason) return { run: false, reason };
  throw new Error(
    `${command.where}: ${program} is not known: run it, or list it in CHECK_ONLY_PROGRAMS with the reason`,
  );
}

/** An npx command's arguments (without --yes) and its package. */
function npxPackage(argv: string[]): { args: string[]; pkg: string } | undefined {
  const [program, ...rest] = argv;
  if (program !== "npx") return undefined;
  const args = rest.filter((a) => a !== "--yes" && a !== "-y");
  return { args, pkg: args[0]!.replace(/(.)@.*$/, "$1") };
}

/** The npx binary and subcommand words whose --help lists an npx command's flags; undefined when none is read. */
async function npxHelpSource(argv: string[]): Promise<{ bin: string; words: string[] } | undefined> {
  const npx = npxPackage(argv);
  // tsx and vitest run files (checked to exist); a command that runs proves its own flags.
  if (!npx || npx.pkg === "tsx" || npx.pkg === "vitest" || RUN_NPX.has(npx.pkg)) return undefined;
  // Subcommands: the leading plain words that are not paths of the repository (`wrangler pages deploy DIR`).
  const words: string[] = [];
  for (const a of npx.args.slice(1)) {
    if (!/^[a-z][a-z-]*$/.test(a) || (await exists(join(repoRoot, a))) || a === "dist") break;
    words.push(a);
  }
  return { bin: npx.pkg, words };
}

/**
 * Starts the --help runs check() will read for these commands, `width` at a time, and waits for them: each waits
 * mostly on a start-up (npm, Node, wrangler), and one after another they were most of docs-commands' time. A failed
 * run is kept as it is, for check() to report against its command.
 */
export async function prefetchHelp(commands: DocCommand[], width = 3): Promise<void> {
  const runs = new Map<string, () => Promise<unknown>>();
  for (const command of commands) {
    const npm = npmRun(command.argv);
    if (npm && scripts[npm.script] !== undefined) runs.set(`npm run ${npm.script}`, () => scriptHelp(npm.script));
    const npx = npm ? undefined : await npxHelpSource(command.argv);
    if (npx) runs.set(["npx", npx.bin, ...npx.words].join(" "), () => binHelp(npx.bin, npx.words));
  }
  const queue = [...runs.values()];
  const next = async (): Promise<void> => {
    for (let run = queue.shift(); run; run = queue.shift()) await run().catch(() => {});
  };
  await Promise.all(Array.from({ length: width }, next));
}

/** What can be checked without running: the script exists, its flags are real, the package or file exists. */
export async function check(command: DocCommand): Promise<void> {
  const npm = npmRun(command.argv);
  if (npm) {
    expect(scripts[npm.script], `${command.where}: package.json has no script "${npm.script}"`).toBeDefined();
    const help = await scriptHelp(npm.script);
    expect(help, `${command.where}: npm run ${npm.script} -- --help prints no usage`).toMatch(/usage:/i);
    for (const flag of longFlags(npm.args))
      expect(help, `${command.where}: npm run ${npm.script} has no --${flag}`).toContain(`--${flag}`);
    return;
  }
  const npx = npxPackage(command.argv);
  if (!npx) return;
  const { args, pkg } = npx;
  const installed =
    (await exists(join(repoRoot, "node_modules", pkg, "package.json"))) ||
    (await exists(join(repoRoot, "node_modules/.bin", pkg)));
  expect(installed, `${command.where}: ${pkg} is not installed`).toBe(true);
  if (pkg === "tsx" || pkg === "vitest") {
    for (const path of args.slice(1).filter((a) => a.includes("/")))
      expect(await exists(join(repoRoot, path)), `${command.where}: ${path} does not exist`).toBe(true);
    return;
  }
  const source = await npxHelpSource(command.argv);
  if (!source) return;
  const help = await binHelp(source.bin, source.words);
  for (const flag of longFlags(args))
    expect(help, `${command.where}: ${[source.bin, ...source.words].join(" ")} has no --${flag}`).toContain(
      `--${flag}`,
    );
}

/** Runs a command as written, in the scratch copy; an export first removes its --out there (it never overwrites). */
export async function runInScratch(command: DocCommand, scratch: string): Promise<void> {
  const npm = npmRun(command.argv) ?? { script: "", args: [] };
  if (npm.script === "export" && !npm.args.includes("--help")) {
    const out = flagValue(npm.args, "out");
    if (out) await rm(join(scratch, out), { recursive: true, force: true });
  }
  try {
    // --norc: not the user's ~/.bashrc, which bash reads even for -c when its input is a socket (as Node's pipes
    // are) and SHLVL is unset or 0: a pyenv init there cost ~0.7 s of CPU a command, and a file the docs never name.
    await run("bash", ["--norc", "-c", command.text], {
      cwd: scratch,
      env: { ...process.env, ...command.env },
      maxBuffer: 16 << 20,
      timeout: 240_000,
    });
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    expect.fail(`${command.where}: \`${command.text}\` exited ${err.code}\n${err.stderr ?? ""}${err.stdout ?? ""}`);
  }
  // Exit 0 is not enough: a script that did nothing also exits 0.
  if ((npm.script === "build" || npm.script === "export") && !npm.args.includes("--help")) {
    const out = flagValue(npm.args, "out") ?? "dist";
    expect(
      await exists(join(scratch, out, npm.script === "build" ? "routes.json" : "index.html")),
      `${command.where}: wrote nothing to ${out}`,
    ).toBe(true);
  }
}
