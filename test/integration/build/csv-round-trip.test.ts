// The spreadsheet path end to end: a catalog exported as CSV and imported into an empty folder builds the same dist/
// as the catalog itself, byte for byte, for the sample and for a generated catalog of 1,000 tools.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCatalog, writeCatalog } from "../../../bench/catalog/generate.ts";
import { build } from "../../../scripts/build.ts";
import { exportContentAsCsv } from "../../../scripts/content/csv/export-command.ts";
import { importContentFromCsv } from "../../../scripts/content/csv/import-command.ts";
import { MANIFEST_FILE, readManifest } from "../../../scripts/io/manifest.ts";
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
  const { files } = await exportContentAsCsv(contentDir);
  await mkdir(csv, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(csv, file), text);
  const imported = join(tmp.path, `${name}-imported`);
  const report = await importContentFromCsv(csv, imported, false);
  expect(report.tools.changed).toEqual([]);
  expect(report.tools.removed).toEqual([]);
  return imported;
}

const manifestOf = (dist: string) => readManifest(dist)!;

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

  it("builds a generated 1,000-tool catalog's dist/ byte for byte", async () => {
    const generated = join(tmp.path, "generated");
    await writeCatalog(generateCatalog({ tools: 1000, categories: 12, seed: 1 }), generated);
    const imported = await throughCsv(generated, "generated");
    // One full build of 280,000 files, then the imported catalog built over it: an incremental build renders every
    // tool again (each content file differs in its $schema pointer) and rewrites only bytes that differ. Writing and
    // removing nothing means the imported catalog's tree is the original's; the two manifests say so file by file.
    const dist = join(tmp.path, "generated-dist");
    const full = await build({ contentDir: generated, outDir: dist });
    const fullManifest = await manifestOf(dist);
    const again = await build({ contentDir: imported, outDir: dist });
    expect(again.mode).toBe("incremental");
    expect({ written: again.written, deleted: again.deleted, files: again.files }).toEqual({
      written: 0,
      deleted: 0,
      files: full.files,
    });
    const manifest = await manifestOf(dist);
    expect(manifest.files).toEqual(fullManifest.files);
    expect(manifest.lists).toEqual(fullManifest.lists);
    await rm(join(tmp.path), { recursive: true, force: true });
  }, 900_000);
});
