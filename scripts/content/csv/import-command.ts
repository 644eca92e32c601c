// npm run content:import -- --csv DIR: the content folder from CSV files (as content:export writes them, edited in a
// spreadsheet). Every bad row is reported at once, by file, row and column, and then nothing is written.
import { readFile, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../../cli/command.ts";
import { ContentErrors, formatContentError } from "../errors.ts";
import { csvToContent } from "./csv-to-content.ts";
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
    description: "check the CSV files and report what would change, writing nothing",
  },
  json: {
    type: "boolean",
    default: false,
    description: "print one JSON object: { ok, tools: { added, changed, removed }, … } or { ok: false, errors }",
  },
} as const;

export const CONTENT_IMPORT: CommandSpec<typeof options> = {
  usage: "npm run content:import -- --csv DIR",
  summary:
    "Writes the content folder from CSV files: one file per row of tools.csv and categories.csv (plans.csv rows join " +
    "their tool), site.json from site.csv (left as it is without one). Only files whose data changed are rewritten; " +
    "tools and categories no longer in the CSV are removed. A bad row stops it all: every error is printed, nothing " +
    "is written. See docs/guide/content.md.",
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

export async function importContentFromCsv(csvDir: string, contentDir: string, dryRun: boolean): Promise<ImportReport> {
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
  return writeImportedContent(contentDir, result.content, existing, dryRun);
}

const described = (what: string, c: Changes) =>
  `${what}: ${c.added.length} added, ${c.changed.length} changed, ${c.removed.length} removed`;

/** The report's lines: counts, then the slugs that changed (a few of each). */
function reportLines(report: ImportReport, dryRun: boolean): string[] {
  const verb = dryRun ? "would be" : "";
  const slugs = (label: string, list: string[]) =>
    list.length === 0
      ? []
      : [`  ${label}: ${list.slice(0, 10).join(", ")}${list.length > 10 ? `, … (${list.length - 10} more)` : ""}`];
  const lines = [described("tools", report.tools)];
  lines.push(
    ...slugs("added", report.tools.added),
    ...slugs("changed", report.tools.changed),
    ...slugs("removed", report.tools.removed),
  );
  lines.push(described("categories", report.categories));
  if (report.siteChanged) lines.push("site.json changed");
  if (dryRun) lines.push(`dry run: nothing was written (these ${verb} the changes)`);
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
    else for (const line of reportLines(report, dryRun)) console.log(line);
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
