// npm run content:import -- --csv DIR: the flags, then the content folder from CSV files
// (scripts/content/csv/import-sheets.ts), the changes reported field by field.
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { importContentFromCsv, reportLines } from "../content/csv/import-sheets.ts";
import { ContentErrors, formatContentError } from "../content/errors.ts";

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
    "(Excel's Unicode text). A text cell's leading ' is removed; a text cell without one that looks like what a " +
    "spreadsheet saves for a number, date, flag or formula error (42, 01/02/26, TRUE) is refused: the spreadsheet " +
    "may have changed it. See docs/guide/content.md.",
  options,
  notes: ["Exit status: 0 imported, 1 bad rows (nothing written), 2 bad flags."],
};

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
