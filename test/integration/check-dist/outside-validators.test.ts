// The schemas work as they are in two validators nobody here wrote: ajv-cli (the one-liner docs/guide/validate.md gives)
// and Python's jsonschema (Debian's python3-jsonschema), over the content files and one built file of each kind.
import { spawnSync } from "node:child_process";
import { cp, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import { patternRegex, SCHEMA_MAP_FILE, type SchemaMap } from "../../../scripts/render/schema-table.ts";
import { builtSite } from "../../helpers/build/built-site.ts";
import { run, tamperPage } from "../../helpers/check-dist/validators.ts";
import { repoRoot, tempDir } from "../../helpers/fs/dirs.ts";
import { launchArgs } from "../../helpers/process/launch.ts";

/** The system Python first (Debian's package lands there), then whatever python3 is on PATH. */
function pythonWithJsonschema(): string | undefined {
  return ["/usr/bin/python3", "python3"].find(
    (python) => spawnSync(python, ["-c", "import jsonschema"], { stdio: "ignore" }).status === 0,
  );
}
const python = pythonWithJsonschema();
if (!python) {
  const why = "Python's jsonschema is not installed (apt-get install -y python3-jsonschema): its checks are SKIPPED";
  if (process.env.CI === "true")
    throw new Error(`${why.replace(": its checks are SKIPPED", "")}, and CI=true requires it`);
  console.warn(`\n*** ${why} ***\n`);
}

const ajvCli = (schema: string, files: string[]) =>
  run([
    join(repoRoot, "node_modules/.bin/ajv"),
    "validate",
    "--spec=draft2020",
    "-c",
    "ajv-formats",
    "--all-errors",
    "--errors=text",
    "-s",
    schema,
    ...files.flatMap((f) => ["-d", f]),
  ]);
const pythonCheck = (groups: [schema: string, files: string[]][]) =>
  run([
    python!,
    join(repoRoot, "test/helpers/check-dist/jsonschema_check.py"),
    ...groups.flatMap(([s, files], i) => [...(i ? ["--"] : []), s, ...files]),
  ]);

const CONTENT: [schema: string, files: string][] = [
  ["schemas/content/site.schema.json", "content/site.json"],
  ["schemas/content/category.schema.json", "content/categories/*.json"],
  ["schemas/content/tool.schema.json", "content/tools/*.json"],
];

describe("outside validators take the schemas as they are", () => {
  const built = builtSite({ prefix: "msapi-validate-" });
  /** one built file of each kind the schema map names, grouped by schema */
  let samples: [schema: string, files: string[]][];
  beforeAll(async () => {
    const real = built.root;
    const map = JSON.parse(await readFile(join(real, SCHEMA_MAP_FILE), "utf8")) as SchemaMap;
    const files = await fg("**", { cwd: real, onlyFiles: true });
    const bySchema = new Map<string, string[]>();
    for (const entry of map.entries) {
      if (!entry.schema || entry.schema.startsWith("https://")) continue;
      const first = files.sort().find((f) => patternRegex(entry.pattern).test(f));
      if (first) bySchema.set(entry.schema, [...(bySchema.get(entry.schema) ?? []), join(built.dist, first)]);
    }
    samples = [...bySchema];
  });

  it("a sample holds every response schema", () => {
    expect(samples.map(([s]) => s).sort()).toEqual(
      (fg.sync("schemas/responses/*.json", { cwd: repoRoot }) as string[]).sort(),
    );
  });

  it.each(CONTENT)("ajv-cli: %s accepts %s", (schema, files) => {
    const { status, stdout, stderr } = ajvCli(schema, [files]);
    expect(stderr, stdout).toBe("");
    expect(status).toBe(0);
    expect(stdout).toMatch(/ valid$/m);
  });

  it("ajv-cli: each one-liner docs/guide/validate.md gives passes, as written (npx ajv is node_modules/.bin/ajv)", async () => {
    const docs = await readFile(join(repoRoot, "docs/guide/validate.md"), "utf8");
    const lines = docs.split("\n").filter((l) => l.startsWith("npx ajv validate "));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const dir = await tempDir("msapi-docs-ajv-");
    try {
      // The one-liners run from the repository root: content/, schemas/ and a built dist there.
      for (const name of ["content", "schemas"]) await symlink(join(repoRoot, name), join(dir.path, name));
      await symlink(built.dist, join(dir.path, "dist"));
      for (const line of lines) {
        const args = line
          .split(" ")
          .slice(2)
          .map((a) => a.replace(/^'(.*)'$/, "$1"));
        const { status, stdout, stderr } = run([join(repoRoot, "node_modules/.bin/ajv"), ...args], dir.path);
        expect(stderr, line).toBe("");
        expect(status, line).toBe(0);
        expect(stdout, line).toMatch(/ valid$/m);
      }
    } finally {
      await dir.remove();
    }
  });

  it("ajv-cli: one built file of each kind validates against its schema", () => {
    for (const [schema, files] of samples) {
      const { status, stderr } = ajvCli(schema, files);
      expect(stderr, schema).toBe("");
      expect(status, schema).toBe(0);
    }
  });

  it.skipIf(!python)(
    "python jsonschema: every content file and one built file of each kind validate (formats checked)",
    async () => {
      const contentGroups = await Promise.all(
        CONTENT.map(async ([s, glob]) => [s, (await fg(glob, { cwd: repoRoot })).sort()] as [string, string[]]),
      );
      const { status, stdout, stderr } = pythonCheck([...contentGroups, ...samples]);
      expect(stdout + stderr).toBe("");
      expect(status).toBe(0);
    },
  );

  it.skipIf(!python)(
    "python jsonschema: the script docs/guide/validate.md gives passes a build and reports every problem of a tampered page",
    async () => {
      const docs = await readFile(join(repoRoot, "docs/guide/validate.md"), "utf8");
      const script = /```python\n([\s\S]*?)```/.exec(docs)?.[1];
      expect(script).toBeTruthy();
      const dir = await tempDir("msapi-docs-python-");
      try {
        // The script runs from the repository root: there, dist is the build and schemas/ the schema files.
        await writeFile(join(dir.path, "check.py"), script!);
        await symlink(join(repoRoot, "schemas"), join(dir.path, "schemas"));
        await cp(built.root, join(dir.path, "dist"), { recursive: true });
        const clean = run([python!, "check.py"], dir.path);
        expect(clean.stdout + clean.stderr).toBe("");
        expect(clean.status).toBe(0);
        await tamperPage(join(dir.path, "dist/v1/software/pages/all/20/0.json"));
        const tampered = run([python!, "check.py"], dir.path);
        expect(tampered.status).toBe(1);
        expect(tampered.stdout.trim().split("\n")).toEqual([
          "dist/v1/software/pages/all/20/0.json: /data/0/slug: 'NOT A SLUG' does not match '^[a-z0-9]+(?:-[a-z0-9]+)*$'",
          "dist/v1/software/pages/all/20/0.json: /data/0/rating: 7.77 is not valid under any of the given schemas",
          "dist/v1/software/pages/all/20/0.json: /meta/total: -1 is less than the minimum of 0",
          "dist/v1/software/pages/all/20/0.json: /meta/limit: 500 is greater than the maximum of 100",
        ]);
      } finally {
        await dir.remove();
      }
    },
  );

  it("the rating-with-two-decimals fixture fails both validators (no float multipleOf to disagree on)", () => {
    const file = "test/fixtures/bad/bad-rating/tools/acme.json";
    expect(ajvCli("schemas/content/tool.schema.json", [file]).status).not.toBe(0);
    if (python)
      expect(pythonCheck([["schemas/content/tool.schema.json", [file]]]).stdout).toMatch(
        /acme\.json: \/rating: 4\.25 is not valid/,
      );
  });

  it("a tampered page (rating 7.77, total -1, limit 500, slug NOT A SLUG) fails ajv-cli, python jsonschema and npm run validate", async () => {
    const dir = await tempDir("msapi-outside-");
    try {
      const copy = join(dir.path, "dist");
      await cp(built.root, copy, { recursive: true });
      const page = join(copy, "v1/software/pages/all/20/0.json");
      await tamperPage(page);
      const schema = "schemas/responses/software-list-response.schema.json";

      const ajv = ajvCli(schema, [page]);
      expect(ajv.status).not.toBe(0);
      for (const field of ["/data/0/rating", "/data/0/slug", "/meta/total", "/meta/limit"])
        expect(ajv.stdout + ajv.stderr).toContain(field);

      if (python) {
        const py = pythonCheck([[schema, [page]]]);
        expect(py.status).toBe(1);
        for (const field of [": /data/0/rating:", ": /data/0/slug:", ": /meta/total:", ": /meta/limit:"])
          expect(py.stdout).toContain(field);
      }

      const own = run([process.execPath, ...launchArgs("scripts/commands/validate.ts", "--dist", copy)]);
      expect(own.status).toBe(1);
      expect(own.stderr.trim().split("\n")).toHaveLength(4);
    } finally {
      await dir.remove();
    }
  });
});
