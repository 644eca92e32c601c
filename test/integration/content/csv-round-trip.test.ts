// The spreadsheet path end to end: a catalog exported as CSV and imported into an empty folder builds the same dist/
// as the catalog itself, byte for byte (the sample), and a generated catalog of 1,000 tools comes back file for file.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { importContentFromCsv } from "../../../scripts/content/csv/import-sheets.ts";
import { contentAsSheets } from "../../../scripts/content/csv/write-sheets.ts";
import { generateCatalog, writeCatalog } from "../../../scripts/content/generate.ts";
import { MANIFEST_FILE } from "../../../scripts/io/manifest.ts";
import { sampleContent, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir("msapi-csv-build-");
});
afterAll(() => tmp?.remove(), 600_000);

/** content → CSV files → a new, empty content folder; returns that folder. */
async function throughCsv(contentDir: string, name: string): Promise<string> {
  const csv = join(tmp.path, `${name}-csv`);
  const { files } = await contentAsSheets(contentDir);
  await mkdir(csv, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(csv, file), text);
  const imported = join(tmp.path, `${name}-imported`);
  const report = await importContentFromCsv(csv, imported, false);
  expect(report.tools.changed).toEqual([]);
  expect(report.tools.removed).toEqual([]);
  return imported;
}

describe("export to CSV, import into an empty folder, build", () => {
  it("builds the sample catalog's dist/ byte for byte", async () => {
    const imported = await throughCsv(sampleContent, "sample");
    const original = await build({ contentDir: sampleContent, outDir: join(tmp.path, "sample-dist") });
    const again = await build({ contentDir: imported, outDir: join(tmp.path, "sample-imported-dist") });
    expect(again.files).toBe(original.files);
    // The build manifest records what each file was rendered from (content hashes, which differ by the files'
    // $schema pointers); it is the build's own bookkeeping, never served. Every other file is compared.
    const served = async (dist: string) => {
      const tree = await hashTree(dist);
      tree.delete(MANIFEST_FILE);
      return tree;
    };
    expect(await served(join(tmp.path, "sample-imported-dist"))).toEqual(await served(join(tmp.path, "sample-dist")));
  }, 600_000);

  // At 1,000 tools the point is the spreadsheet path, not the build (the sample above proves the build, and the same
  // content always builds the same tree): every content file comes back as it was, but for its $schema pointer.
  it("brings a generated 1,000-tool catalog back file for file", async () => {
    const generated = join(tmp.path, "generated");
    await writeCatalog(generateCatalog({ tools: 1000, categories: 12, seed: 1 }), generated);
    const imported = await throughCsv(generated, "generated");
    const contentOf = async (dir: string) => {
      const files = (await fg("**/*.json", { cwd: dir })).sort();
      const parsed = await Promise.all(
        files.map(async (file) => {
          const { $schema, ...rest } = JSON.parse(await readFile(join(dir, file), "utf8")) as Record<string, unknown>;
          return [file, rest] as const;
        }),
      );
      return new Map(parsed);
    };
    const original = await contentOf(generated);
    expect(original.size).toBeGreaterThan(1000);
    expect(await contentOf(imported)).toEqual(original);
  }, 120_000);
});
