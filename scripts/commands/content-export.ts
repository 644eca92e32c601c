// npm run content:export -- --csv DIR: the flags, then the content folder as CSV files
// (scripts/content/csv/write-sheets.ts).
import { relative } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { writeSheets } from "../content/csv/write-sheets.ts";
import { ContentErrors, formatContentError } from "../content/errors.ts";

const options = {
  csv: {
    type: "string",
    valueName: "DIR",
    description: "the folder to write tools.csv, plans.csv, categories.csv and site.csv into (required)",
  },
  content: { type: "string", default: "content", valueName: "DIR", description: "the content folder" },
  json: {
    type: "boolean",
    default: false,
    description: "print one JSON object: { ok, files, tools, plans, categories } or { ok: false, errors }",
  },
} as const;

export const CONTENT_EXPORT: CommandSpec<typeof options> = {
  usage: "npm run content:export -- --csv DIR",
  summary:
    "Writes the content folder as CSV (UTF-8 with a byte-order mark, a header row): one row per tool in tools.csv, per " +
    "pricing plan in plans.csv, per category in categories.csv, and site.csv. A list (pros, cons, categories, a plan's " +
    "features) is one cell with one entry per line. Text cells are quoted, and a text a spreadsheet would read as a " +
    "number, date, flag or formula (00042, =2+3, Jan 2) starts with ' ('00042), which content:import removes. Files " +
    "of those names in DIR are replaced. See docs/guide/content.md.",
  options,
  notes: ["then edit them in a spreadsheet and: npm run content:import -- --csv DIR"],
};

let json = process.argv.includes("--json");

async function main(): Promise<number> {
  const values = parseCommandArgs(CONTENT_EXPORT);
  json = values.json;
  if (values.csv === undefined) throw new UserError(`--csv is required (usage: ${CONTENT_EXPORT.usage})`, 2);
  let written: Awaited<ReturnType<typeof writeSheets>>;
  try {
    written = await writeSheets(values.content, values.csv);
  } catch (e) {
    if (!(e instanceof ContentErrors)) throw e;
    if (json) console.log(JSON.stringify({ ok: false, error: e.message, errors: e.errors.map(formatContentError) }));
    else {
      for (const error of e.errors) console.error(formatContentError(error));
      console.error(`\nexport failed: ${e.message}; nothing was written`);
    }
    return 1;
  }
  const { files, counts: summary } = written;
  const shown = relative(process.cwd(), values.csv) || ".";
  if (json) console.log(JSON.stringify({ ok: true, csv: values.csv, files, ...summary }));
  else
    console.log(
      `wrote ${shown}/: tools.csv (${summary.tools} tools), plans.csv (${summary.plans} plans), categories.csv (${summary.categories} categories), site.csv`,
    );
  return 0;
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => json });
