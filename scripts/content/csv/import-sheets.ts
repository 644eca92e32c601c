// The content folder from CSV files (as content:export writes them, edited in a spreadsheet): `npm run content:import`
// (scripts/commands/content-import.ts) and dev mode's imports. Every bad row is reported at once, by file, row and
// column, and then nothing is written.
import { readFile, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { formatCount, UserError } from "../../cli/command.ts";
import { ContentErrors } from "../errors.ts";
import { csvToContent } from "./csv-to-content.ts";
import { describeFieldChange } from "./field-changes.ts";
import { SHEETS, type Sheet } from "./sheets.ts";
import { type Changes, existingContent, type ImportReport, writeImportedContent } from "./write-content.ts";

/** Reads the CSV folder; a file that is not there is left out (csvToContent says which are needed). */
async function readCsvFolder(csvDir: string): Promise<Partial<Record<Sheet["file"], Uint8Array>>> {
  const files: Partial<Record<Sheet["file"], Uint8Array>> = {};
  for (const { file } of SHEETS) {
    try {
      files[file] = await readFile(join(csvDir, file));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
  }
  return files;
}

/** `keepRemoved`: files with no row any more are reported and left (the dev loop's imports). */
export async function importContentFromCsv(
  csvDir: string,
  contentDir: string,
  dryRun: boolean,
  { keepRemoved = false } = {},
): Promise<ImportReport> {
  // Relative to where the user stands, unless that climbs out of it.
  const relativeDir = relative(process.cwd(), resolve(csvDir));
  const shownDir = relativeDir.startsWith("..") ? resolve(csvDir) : relativeDir;
  const folder = await stat(csvDir).catch(() => undefined);
  if (!folder?.isDirectory())
    throw new UserError(`--csv ${csvDir} is not a folder: give the folder content:export wrote the CSV files into`);
  const existing = await existingContent(contentDir);
  const result = csvToContent({
    files: await readCsvFolder(csvDir),
    shown: (file) => (shownDir ? join(shownDir, file) : file),
    existingSite: existing.site,
  });
  if (!result.ok)
    throw new ContentErrors(
      result.errors,
      `${result.errors.length} bad cell${result.errors.length === 1 ? "" : "s"} or row${result.errors.length === 1 ? "" : "s"}`,
    );
  return writeImportedContent(contentDir, result.content, existing, { dryRun, keepRemoved });
}

const described = (what: string, c: Changes) =>
  `${what}: ${c.added.length} added, ${c.changed.length} changed, ${c.removed.length} removed`;

/** Past this many, a kind's changed fields are counted, not listed (--json lists every one). */
const MOST_FIELDS = 50;

/**
 * The report's lines: counts, the slugs added, changed and removed (a few of each), then each changed field as
 * `slug: field: old → new`. `keptRemoved`: the import left the files of removed rows (the dev loop).
 */
export function reportLines(report: ImportReport, { dryRun = false, keptRemoved = false } = {}): string[] {
  const slugs = (label: string, list: string[]) =>
    list.length === 0
      ? []
      : [`  ${label}: ${list.slice(0, 10).join(", ")}${list.length > 10 ? `, … (${list.length - 10} more)` : ""}`];
  const fields = (list: string[]) =>
    list.length <= MOST_FIELDS
      ? list.map((line) => `  ${line}`)
      : [
          ...list.slice(0, MOST_FIELDS).map((line) => `  ${line}`),
          `  … and ${formatCount(list.length - MOST_FIELDS)} more changed fields (--json lists every one)`,
        ];
  const lines: string[] = [];
  for (const [what, c] of [
    ["tools", report.tools],
    ["categories", report.categories],
  ] as const) {
    lines.push(described(what, c));
    lines.push(
      ...slugs("added", c.added),
      ...slugs("changed", c.changed),
      ...slugs(
        keptRemoved ? "no row any more (their files are kept; content:import removes them)" : "removed",
        c.removed,
      ),
      ...fields(c.fields.map((f) => describeFieldChange(f.slug, f))),
    );
  }
  if (report.siteChanged)
    lines.push("site.json changed", ...fields(report.siteFields.map((f) => describeFieldChange("site.json", f))));
  if (dryRun) lines.push("dry run: nothing was written (these would be the changes)");
  return lines;
}
