// npm run validate over a real build: silent and exit 0 when all is well; every problem, one line each, exit 1.
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSchemaMap, SCHEMA_MAP_FILE } from "../../../scripts/render/schema-table.ts";
import { builtSite } from "../../helpers/build/built-site.ts";
import { run, TAMPERED_PROBLEMS, tamperPage } from "../../helpers/check-dist/validators.ts";
import { repoRoot, tempDir } from "../../helpers/fs/dirs.ts";
import { launchArgs } from "../../helpers/process/launch.ts";

const validate = (...args: string[]) => run([process.execPath, ...launchArgs("scripts/commands/validate.ts", ...args)]);

describe("npm run validate", () => {
  const built = builtSite({ prefix: "msapi-validate-" });

  it("dist/schema-map.json is the route table's map, and every JSON file the hosts serve matches one entry", async () => {
    const map = JSON.parse(await readFile(join(built.dist, SCHEMA_MAP_FILE), "utf8"));
    const table = JSON.parse(await readFile(join(built.dist, "routes.json"), "utf8"));
    expect(map).toEqual(buildSchemaMap(table));
    const schemas = new Set(map.entries.map((e: { schema: string | null }) => e.schema));
    for (const s of schemas)
      if (typeof s === "string" && !s.startsWith("https://"))
        expect(await readFile(join(repoRoot, s as string), "utf8")).toContain("$schema");
  });

  it("passes a fresh build (through the dist symlink), and says how many files it checked", async () => {
    const { status, stdout, stderr } = validate("--dist", built.dist);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout).toMatch(/: the [\d,]+ JSON bodies of its [\d,]+ served files are valid, and its [\d,]+ pieces are /);
  });

  it("reports every problem of a tampered page at once, as file: pointer: message, and exits 1", async () => {
    const dir = await tempDir("msapi-validate-bad-");
    try {
      const copy = join(dir.path, "dist");
      await cp(built.root, copy, { recursive: true });
      await tamperPage(join(copy, "v1/software/pages/all/20/0.json"));
      const { status, stdout, stderr } = validate("--dist", copy);
      expect(status).toBe(1);
      const shown = `${copy}/v1/software/pages/all/20/0.json`;
      expect(stderr.trim().split("\n")).toEqual([
        `${shown}: /data/0/slug: must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$"`,
        `${shown}: /data/0/rating: must be <= 5`,
        `${shown}: /meta/total: must be >= 0`,
        `${shown}: /meta/limit: must be <= 100`,
      ]);
      for (const p of TAMPERED_PROBLEMS) expect(stderr).toContain(p);
      expect(stdout).toMatch(/4 problems in 1 of the [\d,]+ JSON bodies of its [\d,]+ served files/);

      const json = validate("--dist", relative(repoRoot, copy), "--json");
      expect(json.status).toBe(1);
      const answer = JSON.parse(json.stdout);
      expect(answer).toMatchObject({
        ok: false,
        problems: expect.arrayContaining([expect.stringMatching(/0\.json: \/meta\/limit: must be <= 100$/)]),
      });
      expect(answer.problems).toHaveLength(4);
    } finally {
      await dir.remove();
    }
  });

  it("checks error bodies and openapi.json too, and names a missing file the route table answers with", async () => {
    const dir = await tempDir("msapi-validate-bad-");
    try {
      const copy = join(dir.path, "dist");
      await cp(built.root, copy, { recursive: true });
      await writeFile(join(copy, "errors/not_found.json"), JSON.stringify({ error: { code: "teapot", message: "x" } }));
      const openapi = JSON.parse(await readFile(join(copy, "v1/openapi.json"), "utf8"));
      openapi.openapi = "3.0.3";
      openapi.paths["/software"].get.responses = "none";
      await writeFile(join(copy, "v1/openapi.json"), JSON.stringify(openapi));
      await rm(join(copy, "v1/categories.json"));
      const { status, stderr } = validate("--dist", copy);
      expect(status).toBe(1);
      const lines = stderr
        .trim()
        .split("\n")
        .map((l) => l.slice(copy.length + 1));
      expect(lines[0]).toBe("v1/categories.json: missing");
      expect(lines).toContain(
        'errors/not_found.json: /error/code: must be one of "software_not_found", "category_not_found", "invalid_limit", "invalid_offset", "offset_out_of_range", "not_found", "method_not_allowed", "invalid_query", "bad_request", "service_unavailable"',
      );
      expect(lines).toContain("v1/openapi.json: /openapi: must be an OpenAPI 3.1 version (3.1.x)");
      expect(lines.some((l) => l.startsWith("v1/openapi.json: /paths/~1software/get/responses: "))).toBe(true);
    } finally {
      await dir.remove();
    }
  });

  it("B6: --help, a bad flag (exit 2, one line), a folder with no build (exit 1, one line, or one JSON object)", () => {
    const help = validate("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--dist DIR");
    const bad = validate("--dst", "x");
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    const none = validate("--dist", "/nonexistent-msapi");
    expect(none.status).toBe(1);
    expect(none.stderr.trim()).toBe(
      "/nonexistent-msapi/schema-map.json not found: run npm run build first (or pass --dist DIR)",
    );
    const noneJson = validate("--dist", "/nonexistent-msapi", "--json");
    expect(noneJson.status).toBe(1);
    expect(JSON.parse(noneJson.stdout)).toEqual({ ok: false, error: expect.stringContaining("not found") });
  });
});

describe("npm run validate on a runs build (each list once, no page file)", () => {
  const site = builtSite({ prefix: "msapi-validate-runs-", layout: "runs" });

  /** A copy of the runs build with `tamper` applied, validated: its problems as paths relative to it. */
  async function tampered(tamper: (copy: string) => Promise<void>) {
    const copy = join(site.dir, `copy-${Math.random().toString(36).slice(2)}`);
    await cp(site.root, copy, { recursive: true });
    await tamper(copy);
    const { status, stderr } = validate("--dist", copy);
    return {
      status,
      problems: stderr
        .trim()
        .split("\n")
        .map((l) => l.slice(copy.length + 1)),
    };
  }

  it("passes it, and says it checked its lists' pages from their runs", () => {
    const { status, stdout, stderr } = validate("--dist", site.root);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout).toMatch(
      / and the 1,500 list pages of its 5 runs \(4 distinct items\) are valid, and its 5 pieces are what its lists and catalog body are made of \(/,
    );
    const json = JSON.parse(validate("--dist", site.root, "--json").stdout);
    expect(json).toMatchObject({ ok: true, pieces: 5, runs: { lists: 5, items: 10, distinct: 4, pages: 1_500 } });
  });

  it("names an item of a run against the summary schema, by its place in the run", async () => {
    const { status, problems } = await tampered(async (copy) => {
      const file = join(copy, "runs/all.run");
      // the same length (the index's), a rating out of range in the first item
      const run = await readFile(file, "utf8");
      await writeFile(
        file,
        run.replace(/"rating":[0-9.]+/, (m) => `"rating":${"9".repeat(m.length - 9)}`),
      );
    });
    expect(status).toBe(1);
    expect(problems).toEqual(["runs/all.run: /0/rating: must be <= 5", "runs/all.run: not its pieces joined"]);
  });

  it("names a run of another length, a missing run, and offsets that are not the index's", async () => {
    const { status, problems } = await tampered(async (copy) => {
      await writeFile(join(copy, "runs/all.run"), `${await readFile(join(copy, "runs/all.run"), "utf8")} `);
      await rm(join(copy, "runs/category/seo.run"));
      const offsets = await readFile(join(copy, "runs/category/email.offsets"));
      offsets.writeUInt32LE(offsets.readUInt32LE(4) + 1, 4);
      await writeFile(join(copy, "runs/category/email.offsets"), offsets);
    });
    expect(status).toBe(1);
    expect(problems).toEqual([
      expect.stringMatching(/^runs\/all\.run: \d+ bytes where the build's index says \d+$/),
      expect.stringMatching(/^runs\/category\/email\.offsets: entry 1 is \d+ where the index says \d+$/),
      "runs/category/seo.run: missing or unreadable (ENOENT): the index names it",
      "runs/all.run: not its pieces joined",
    ]);
  });

  it("names a piece that is not its name's, and a piece nothing names", async () => {
    const { status, problems } = await tampered(async (copy) => {
      const index = JSON.parse(await readFile(join(copy, "build-index.json"), "utf8"));
      const [id] = index.lists.all.pieces[0];
      const file = join(copy, `v1/sync/pieces/${id}.json`);
      await writeFile(file, (await readFile(file, "utf8")).replace("[{", "[ {").replace("}]", "}"));
      await writeFile(join(copy, `v1/sync/pieces/${"0".repeat(64)}.json`), "[]");
    });
    expect(status).toBe(1);
    expect(problems).toContain(
      `v1/sync/pieces/${"0".repeat(64)}.json: named by no list and not by /v1/export/catalog.json`,
    );
    expect(problems.filter((p) => p.endsWith(": its bytes are not the piece its name is the SHA-256 of"))).toHaveLength(
      1,
    );
  });
});
