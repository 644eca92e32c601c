// The catalog survives a real spreadsheet (C5): content:export's files opened and saved by LibreOffice Calc (headless), in
// English and German, with the import dialog's defaults and with its detection of special numbers and evaluation of
// formulas on, then content:import. The sample and a catalog written to provoke a spreadsheet come back byte for byte.
// The same provoking texts written without the marker (as an export without it would, or as a person types them)
// come back refused, one line per cell the spreadsheet changed, with nothing written: never a silent change.
// One soffice run per locale and setting opens every file at once, and the four runs go side by side.
import { cp, mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTextKind } from "../../../scripts/content/csv/cells.ts";
import { importContentFromCsv } from "../../../scripts/content/csv/import-sheets.ts";
import { SHEETS } from "../../../scripts/content/csv/sheets.ts";
import { TEXT_MARKER } from "../../../scripts/content/csv/text-marker.ts";
import { contentAsSheets } from "../../../scripts/content/csv/write-sheets.ts";
import { ContentErrors, formatContentError } from "../../../scripts/content/errors.ts";
import { writeCatalog } from "../../../scripts/content/generate.ts";
import {
  type CalcSetting,
  DETECT_ALL,
  DIALOG_DEFAULTS,
  findSoffice,
  type Locale,
  openAndSave,
} from "../../helpers/content/libreoffice.ts";
import { provokingCatalog } from "../../helpers/content/provoking-catalog.ts";
import { sampleContent, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

const soffice = findSoffice();
if (!soffice)
  console.warn(
    "\n!!!!! LibreOffice is NOT installed: the spreadsheet round trips are SKIPPED (they fail under CI=true); " +
      "apt-get install libreoffice-calc-nogui !!!!!\n",
  );

const RUNS: readonly { locale: Locale; setting: CalcSetting }[] = [
  { locale: "en-US", setting: DIALOG_DEFAULTS },
  { locale: "en-US", setting: DETECT_ALL },
  { locale: "de-DE", setting: DIALOG_DEFAULTS },
  { locale: "de-DE", setting: DETECT_ALL },
];
const runName = ({ locale, setting }: (typeof RUNS)[number]) => `${locale}, ${setting.name}`;

/** The catalogs whose export goes through the spreadsheet; "unmarked" is the provoking one's, without the marker. */
const CATALOGS = ["sample", "provoking", "unmarked"] as const;
type Catalog = (typeof CATALOGS)[number];

/** Content folders of the catalogs, each as its own re-import left it (the files' `$schema` pointers included). */
const contentOf = (catalog: Catalog) => join(tmp.path, `${catalog === "unmarked" ? "provoking" : catalog}-content`);
/** The folder of a run's saved files; a catalog's are in its subfolder, under the sheets' names. */
const runDir = (run: (typeof RUNS)[number]) => join(tmp.path, "saved", String(RUNS.indexOf(run)));
const savedOf = (run: (typeof RUNS)[number], catalog: Catalog) => join(runDir(run), catalog);
const writtenOf = (catalog: Catalog) => join(tmp.path, "written", catalog);

let tmp: Awaited<ReturnType<typeof tempDir>>;

describe.skipIf(!soffice && process.env.CI !== "true")("a catalog opened and saved by LibreOffice Calc", () => {
  beforeAll(async () => {
    tmp = await tempDir("msapi-libreoffice-");
    await cp(sampleContent, contentOf("sample"), { recursive: true });
    await writeCatalog(provokingCatalog(), contentOf("provoking"));
    // Each file gets the `$schema` pointer an import writes, so that an import that changes nothing rewrites nothing.
    const direct = join(tmp.path, "direct");
    await exportTo(contentOf("provoking"), direct);
    await importContentFromCsv(direct, contentOf("provoking"), false);

    // Every file of every catalog into one folder, under names of their own: one soffice run per locale and setting.
    const inbox = join(tmp.path, "inbox");
    await mkdir(inbox);
    for (const catalog of CATALOGS) {
      await exportTo(contentOf(catalog), writtenOf(catalog), catalog === "unmarked");
      for (const { file } of SHEETS) await cp(join(writtenOf(catalog), file), join(inbox, `${catalog}.${file}`));
    }
    const inputs = CATALOGS.flatMap((catalog) => SHEETS.map(({ file }) => join(inbox, `${catalog}.${file}`)));
    await Promise.all(
      RUNS.map(async (run) => {
        const all = join(runDir(run), "all");
        await openAndSave({ files: inputs, outDir: all, ...run, timeoutMs: 90_000 });
        for (const catalog of CATALOGS) {
          await mkdir(savedOf(run, catalog));
          for (const { file } of SHEETS)
            await rename(join(all, `${catalog}.${file}`), join(savedOf(run, catalog), file));
        }
      }),
    );
  }, 180_000);
  afterAll(() => tmp?.remove());

  it("ran each soffice in a process group of its own, ended: no soffice of these runs is left", async () => {
    expect(await sofficeProcesses()).toEqual([]);
  });

  it("refuses to save into the folder of a file it opens (soffice would save nothing and exit 0)", async () => {
    const file = join(writtenOf("sample"), "site.csv");
    await expect(
      openAndSave({ files: [file], outDir: writtenOf("sample"), locale: "en-US", setting: DETECT_ALL }),
    ).rejects.toThrow("soffice cannot save into the folder of the file it opened");
  });

  describe.each(RUNS.map((run) => [runName(run), run] as const))("%s", (_, run) => {
    it.each(["sample", "provoking"] as const)("the %s catalog comes back byte for byte", async (catalog) => {
      const content = contentOf(catalog);
      const before = await hashTree(content);
      const report = await importContentFromCsv(savedOf(run, catalog), content, false);
      expect([report.tools, report.categories, report.siteChanged]).toEqual([
        { added: [], changed: [], removed: [], fields: [] },
        { added: [], changed: [], removed: [], fields: [] },
        false,
      ]);
      expect(await hashTree(content)).toEqual(before);
    });

    it("the provoking texts written without the marker are refused, one line per cell it changed, and nothing is written", async () => {
      const content = contentOf("unmarked");
      const before = await hashTree(content);
      const saved = savedOf(run, "unmarked");
      const lines = await importErrors(saved, content);
      expect(await hashTree(content)).toEqual(before);
      expect(lines.length).toBeGreaterThan(0);
      expect(new Set(lines.map(cellOf)).size, "one line per cell").toBe(lines.length);
      const refused = new Set(lines.map(cellOf));
      // Every text cell the spreadsheet changed is refused, but a formula's result in text (`=A1` → `id`), which no
      // rule can tell from text: why the export marks every text that begins with `=`.
      const changed = await changedTextCells(writtenOf("unmarked"), saved);
      const unrefused = changed.filter((c) => !refused.has(c.cell));
      expect(unrefused.filter((c) => !c.written.startsWith("=")).map((c) => `${c.cell}: ${JSON.stringify(c)}`)).toEqual(
        [],
      );
      if (run.setting.evaluateFormulas) expect(unrefused.length).toBeGreaterThan(0);
      else expect(unrefused).toEqual([]);
    });
  });
});

/** The soffice processes started with a profile of openAndSave's (`msapi-lo-profile-…`), as their command lines. */
async function sofficeProcesses(): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir("/proc").catch(() => [])) {
    if (!/^\d+$/.test(pid)) continue;
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (command.includes("soffice") && command.includes("msapi-lo-profile-")) found.push(command.replaceAll("\0", " "));
  }
  return found;
}

/** The catalog's sheets into `dir`, as content:export writes them, or `unmarked`: with every text's marker taken off. */
async function exportTo(contentDir: string, dir: string, unmarked = false): Promise<void> {
  const { files } = await contentAsSheets(contentDir);
  await mkdir(dir, { recursive: true });
  for (const sheet of SHEETS) {
    let text = files[sheet.file];
    if (unmarked) {
      const rows = parse(text, { bom: true }) as string[][];
      const kinds = rows[0]!.map((name) => sheet.columns.find((c) => c.name === name)!.kind);
      text = `\ufeff${rows
        .map((cells, r) =>
          cells
            .map((cell, i) => {
              const bare =
                r > 0 && isTextKind(kinds[i]!)
                  ? cell
                      .split("\n")
                      .map((line) => (line.startsWith(TEXT_MARKER) ? line.slice(1) : line))
                      .join("\n")
                  : cell;
              return r > 0 && isTextKind(kinds[i]!) && bare !== "" ? `"${bare.replaceAll('"', '""')}"` : bare;
            })
            .join(","),
        )
        .join("\r\n")}\r\n`;
    }
    await writeFile(join(dir, sheet.file), text);
  }
}

/** The error lines of a failed import, without the CSV folder's path. */
async function importErrors(csvDir: string, contentDir: string): Promise<string[]> {
  const error = await importContentFromCsv(csvDir, contentDir, false).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ContentErrors)) throw error ?? new Error("the import succeeded");
  return error.errors
    .map(formatContentError)
    .map((line) => line.slice(line.lastIndexOf("/", line.indexOf(".csv:")) + 1));
}

/** `tools.csv:7: pros: …` → `tools.csv:7: pros` */
const cellOf = (line: string) => /^([^:]+:\d+: \w+)/.exec(line)?.[1] ?? line;

/** The text cells whose saved text differs from the written one, as `tools.csv:7: pros`. */
async function changedTextCells(written: string, saved: string) {
  const changed: { cell: string; written: string; saved: string }[] = [];
  for (const sheet of SHEETS) {
    const before = parse(await readFile(join(written, sheet.file)), { bom: true }) as string[][];
    const after = parse(await readFile(join(saved, sheet.file)), { bom: true, relax_column_count: true }) as string[][];
    const header = before[0]!;
    for (const [r, cells] of before.entries()) {
      if (r === 0) continue;
      for (const [i, cell] of cells.entries()) {
        const column = sheet.columns.find((c) => c.name === header[i])!;
        const again = after[r]?.[i] ?? "";
        if (isTextKind(column.kind) && again !== cell)
          changed.push({ cell: `${sheet.file}:${r + 1}: ${column.name}`, written: cell, saved: again });
      }
    }
  }
  return changed;
}
