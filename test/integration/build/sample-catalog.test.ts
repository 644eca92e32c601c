// The sample catalog in content/, built for real: every file valid, reproducible, and safe to rebuild.

import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import type { SchemaFile } from "../../../scripts/schemas/schema-files.ts";
import { validatorFor } from "../../../scripts/schemas/validators.ts";
import { filesButPages, indexButLayout, pagesAgainstRuns } from "../../helpers/build/layouts.ts";
import { fixture, repoRoot, sampleContent, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";
import { launchArgs } from "../../helpers/process/launch.ts";

const run = promisify(execFile);

/** Which response schema each built body must satisfy, by its place in dist/. */
function schemaOf(path: string): SchemaFile | undefined {
  if (path.startsWith("errors/")) return "responses/error-response.schema.json";
  if (path.startsWith("v1/software/pages/")) return "responses/software-list-response.schema.json";
  if (/^v1\/software\/[^/]+\.json$/.test(path)) return "responses/software-detail-response.schema.json";
  if (path === "v1/categories.json") return "responses/category-list-response.schema.json";
  if (path.startsWith("v1/best/")) return "responses/best-in-category-response.schema.json";
  return undefined;
}

describe("the sample catalog", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let first: Map<string, string>;
  beforeAll(async () => {
    dir = await tempDir();
    await build({ contentDir: sampleContent, outDir: join(dir.path, "a") });
    first = await hashTree(join(dir.path, "a"));
  });
  afterAll(() => dir.remove());

  it("every built body validates against its response schema (parsed whole, not piece by piece)", async () => {
    const files = await fg("{v1,errors}/**/*.json", { cwd: join(dir.path, "a") });
    let checked = 0;
    for (const f of files) {
      const schema = schemaOf(f);
      if (!schema) continue; // openapi.json is checked by the OpenAPI tests
      const validate = validatorFor(schema);
      // Read synchronously: one after another anyway, and fs/promises costs ~3x the CPU for 20,000 small files.
      const body = JSON.parse(readFileSync(join(dir.path, "a", f), "utf8"));
      if (!validate(body)) throw new Error(`${f}: ${JSON.stringify(validate.errors)}`);
      checked++;
    }
    expect(checked).toBeGreaterThan(20_000);
  });

  it("H6 the same content builds a byte-identical tree", async () => {
    await build({ contentDir: sampleContent, outDir: join(dir.path, "b") });
    const second = await hashTree(join(dir.path, "b"));
    expect(second.size).toBe(first.size);
    expect(second).toEqual(first);
  });

  it("H6 L1 a runs build holds the pages build's files but the page files; every page file is a slice of its run", async () => {
    const runs = join(dir.path, "runs");
    expect((await build({ contentDir: sampleContent, outDir: runs, layout: "runs" })).layout).toBe("runs");
    expect(await fg("v1/software/pages/**", { cwd: runs })).toEqual([]);
    const pages = join(dir.path, "a");
    expect(await filesButPages(runs)).toEqual(await filesButPages(pages));
    expect(indexButLayout(runs)).toEqual(indexButLayout(pages));
    const l1 = await pagesAgainstRuns(pages);
    expect(l1.differ).toEqual([]);
    expect(l1.compared).toBeGreaterThan(20_000);
  });

  it("a bad content file exits 1, prints every error, and leaves the previous dist/ byte-identical", async () => {
    const out = join(dir.path, "a");
    const result = await run(
      process.execPath,
      launchArgs("scripts/commands/build.ts", "--content", fixture("bad/many-errors"), "--out", out),
      { cwd: repoRoot },
    ).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("tools/acme.json: rating: expected number or null, got string");
    expect(result.stderr).toContain('categories/email.json: slug: "e-mail" must equal the file name "email"');
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(await hashTree(out)).toEqual(first);
  });

  it("--json prints the summary as one JSON object for CI", async () => {
    const { stdout } = await run(
      process.execPath,
      launchArgs("scripts/commands/build.ts", "--content", fixture("tiny"), "--out", join(dir.path, "c"), "--json"),
      { cwd: repoRoot },
    );
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({
      ok: true,
      files: expect.any(Number),
      bytes: expect.any(Number),
      seconds: expect.any(Number),
      tools: 4,
      categories: 4,
    });
  });
});
