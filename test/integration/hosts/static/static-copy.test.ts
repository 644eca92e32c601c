// npm run export: the folder a file-only host publishes holds every body a request can be answered with, and
// nothing internal (route table, build manifest, other hosts' configs, precompressed siblings, dotfiles).
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import { builtSite } from "../../../helpers/build/built-site.ts";
import { fixture, repoRoot } from "../../../helpers/fs/dirs.ts";
import { launchArgs } from "../../../helpers/process/launch.ts";

const run = promisify(execFile);

async function exportCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, launchArgs("scripts/commands/export.ts", ...args), {
      cwd: repoRoot,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const filesOf = async (dir: string) => (await fg("**", { cwd: dir, dot: true, onlyFiles: true })).sort();

// --compress: the .br/.gz siblings must stay behind too.
const site = builtSite({ prefix: "msapi-export-", compress: true });
let distFiles: string[];

beforeAll(async () => {
  // A dotfile planted in the build (as an editor or a sync tool might leave): never published.
  await mkdir(join(site.dist, "v1/.cache"), { recursive: true });
  await writeFile(join(site.dist, "v1/.cache/secret.json"), "{}");
  await writeFile(join(site.dist, ".env"), "TOKEN=canary");
  distFiles = await filesOf(site.dist);
});

/** What a file-only host must serve, listed from the build by kind (not by the code under test). */
const expectedBodies = () =>
  distFiles.filter(
    (f) =>
      (/^v1\/.+\.json$/.test(f) && !f.split("/").some((s) => s.startsWith("."))) ||
      /^errors\/.+\.json$/.test(f) ||
      f === "index.html" ||
      f.startsWith("docs/") ||
      f === "llms.txt" ||
      f === "404.html",
  );

const INTERNAL =
  /^(routes\.json|\.build-manifest\.json|serve\.json|nginx\/|cloudflare\/|wrangler|\.assetsignore|v1\/404\.html$)|\.(br|gz)$|(^|\/)\./;

describe.each([
  { host: "static", extras: [] as string[] },
  // serve.json: the export's own (its folder served whole, for `npx serve DIR`), not the build's.
  { host: "serve", extras: ["serve.json"] },
  { host: "cloudflare-pages", extras: ["_headers"] },
  { host: "netlify", extras: ["_headers", "_redirects"] },
])("npm run export -- --host $host", ({ host, extras }) => {
  let out: string;
  let files: string[];

  beforeAll(async () => {
    out = join(site.dir, `public-${host}`);
    const result = await exportCli(["--dist", site.dist, "--out", out, "--host", host, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ ok: true, host, out });
    files = await filesOf(out);
    expect(summary.files).toBe(files.length);
  });

  it("holds every body, error body and docs file of the build, and the host's own config files", () => {
    expect(files).toEqual([...expectedBodies(), ...extras].sort());
  });

  it("holds nothing internal: no route table, manifest, other hosts' configs, precompressed siblings or dotfiles", () => {
    const internal = distFiles.filter((f) => INTERNAL.test(f));
    // The build does have them: the check below is not vacuous.
    expect(internal).toEqual(expect.arrayContaining(["routes.json", "serve.json", ".env", "v1/.cache/secret.json"]));
    expect(internal.some((f) => f.endsWith(".br"))).toBe(true);
    expect(files.filter((f) => INTERNAL.test(f) && !extras.includes(f))).toEqual([]);
    for (const other of ["_headers", "_redirects"].filter((f) => !extras.includes(f)))
      expect(files).not.toContain(other);
  });

  it("copies each file byte for byte", async () => {
    for (const f of files.filter((f, i) => (i % 7 === 0 || f.startsWith("_")) && f !== "serve.json")) {
      expect((await readFile(join(out, f))).equals(await readFile(join(site.dist, f))), f).toBe(true);
    }
  });
});

describe("npm run export refuses, in one line", () => {
  it("an out folder that is not empty (exit 1), and writes nothing into it", async () => {
    const out = join(site.dir, "busy");
    await mkdir(out);
    await writeFile(join(out, "keep.txt"), "mine");
    const result = await exportCli(["--dist", site.dist, "--out", out]);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(/is not empty/)]);
    expect(await filesOf(out)).toEqual(["keep.txt"]);
  });

  it("an out folder inside the build (exit 1)", async () => {
    const result = await exportCli(["--dist", site.dist, "--out", join(site.dist, "public")]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(/overlaps the build/)]);
    expect(await filesOf(site.dist)).toEqual(distFiles);
  });

  it("a folder that is not a build (exit 1), an unknown host and a missing --out (exit 2)", async () => {
    const notBuild = await exportCli(["--dist", fixture("tiny"), "--out", join(site.dir, "x")]);
    expect(notBuild.code).toBe(1);
    expect(notBuild.stderr.trim().split("\n")).toEqual([expect.stringMatching(/not a build/)]);
    const badHost = await exportCli(["--dist", site.dist, "--out", join(site.dir, "y"), "--host", "ftp"]);
    expect(badHost.code).toBe(2);
    expect(badHost.stderr.trim()).toMatch(/^unknown --host ftp/);
    const noOut = await exportCli(["--dist", site.dist]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr.trim().split("\n")).toHaveLength(1);
  });
});
