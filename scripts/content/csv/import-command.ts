// npm run content:import -- --csv DIR: the content folder from CSV files (as content:export writes them, edited in a
// spreadsheet). Every bad row is reported at once, by file, row and column, and then nothing is written.
import { readFile, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { type CommandSpec, formatCount, isMain, parseCommandArgs, runCommand, UserError } from "../../cli/command.ts";
import { ContentErrors, formatContentError } from "../errors.ts";
import { csvToContent } from "./csv-to-content.ts";
import { describeFieldChange } from "./field-changes.ts";
import { SHEETS, type Sheet } from "./sheets.ts";
import { type Changes, existingContent, type ImportReport, writeImportedContent } from "./write-content.ts";

const options = {
  csv: {
    type: "string",
    valueName: "DIR",
    description: "the folder holding tools.csv, plans.csv, categories.csv and site.csv (required)",
  },
  content: {
    type: "string",
    default: "content",
    valueName: "DIR",
    description: "the content folder to write (created if missing)",
  },
  "dry-run": {
    type: "boolean",
    default: false,
    description: "check the CSV files and report what would change (each changed field, old → new), writing nothing",
  },
  json: {
    type: "boolean",
    default: false,
    description:
      "print one JSON object: { ok, tools: { added, changed, removed, fields }, … } or { ok: false, errors }",
  },
} as const;

export const CONTENT_IMPORT: CommandSpec<typeof options> = {
  usage: "npm run content:import -- --csv DIR",
  summary:
    "Writes the content folder from CSV files: one file per row of tools.csv and categories.csv (plans.csv rows join " +
    "their tool), site.json from site.csv (left as it is without one). Only files whose data changed are rewritten; " +
    "tools and categories no longer in the CSV are removed. A bad row stops it all: every error is printed, nothing " +
    "is written. Reads what spreadsheets save: comma, semicolon (decimal commas) or tab separated, UTF-8 or UTF-16 " +
    "(Excel's Unicode text). See docs/guide/content.md.",
  options,
  notes: ["Exit status: 0 imported, 1 bad rows (nothing written), 2 bad flags."],
};

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

let json = process.argv.includes("--json");

async function main(): Promise<number> {
  const values = parseCommandArgs(CONTENT_IMPORT);
  json = values.json;
  if (values.csv === undefined) throw new UserError(`--csv is required (usage: ${CONTENT_IMPORT.usage})`, 2);
  const dryRun = values["dry-run"];
  try {
    const report = await importContentFromCsv(values.csv, values.content, dryRun);
    if (json) console.log(JSON.stringify({ ok: true, dryRun, content: values.content, ...report }));
    else for (const line of reportLines(report, { dryRun })) console.log(line);
    return 0;
  } catch (e) {
    if (!(e instanceof ContentErrors)) throw e;
    if (json) console.log(JSON.stringify({ ok: false, error: e.message, errors: e.errors.map(formatContentError) }));
    else {
      for (const error of e.errors) console.error(formatContentError(error));
      console.error(`\nimport failed: ${e.message}; nothing was written`);
    }
    return 1;
  }
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => json });
