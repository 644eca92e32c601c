// npm run content:export -- --csv DIR: the content folder as CSV files a spreadsheet opens as they are.
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../../cli/command.ts";
import { ContentErrors, formatContentError } from "../errors.ts";
import { loadContent } from "../load.ts";
import { validateContent } from "../validate.ts";
import { type CsvFiles, contentToCsv } from "./content-to-csv.ts";

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
    "features) is one cell with one entry per line. Files of those names in DIR are replaced. See docs/guide/content.md.",
  options,
  notes: ["then edit them in a spreadsheet and: npm run content:import -- --csv DIR"],
};

/** Reads and checks the content folder, and returns the CSV files' text. Throws ContentErrors on invalid content. */
export async function exportContentAsCsv(contentDir: string): Promise<{ files: CsvFiles; counts: ExportCounts }> {
  const raw = await loadContent(contentDir);
  const valid = validateContent(raw);
  if (!valid.ok) throw new ContentErrors(valid.errors);
  const asRecord = (f: { file: string; data: unknown }) => ({ file: f.file, data: f.data as Record<string, unknown> });
  const csv = contentToCsv({
    site: asRecord(raw.site!),
    categories: raw.categories.map(asRecord),
    tools: raw.tools.map(asRecord),
  });
  if (!csv.ok) throw new ContentErrors(csv.errors);
  const plans = valid.content.tools.reduce((n, t) => n + t.pricingPlans.length, 0);
  return {
    files: csv.files,
    counts: { tools: raw.tools.length, plans, categories: raw.categories.length },
  };
}

interface ExportCounts {
  tools: number;
  plans: number;
  categories: number;
}

let json = process.argv.includes("--json");

async function main(): Promise<number> {
  const values = parseCommandArgs(CONTENT_EXPORT);
  json = values.json;
  if (values.csv === undefined) throw new UserError(`--csv is required (usage: ${CONTENT_EXPORT.usage})`, 2);
  let exported: Awaited<ReturnType<typeof exportContentAsCsv>>;
  try {
    exported = await exportContentAsCsv(values.content);
  } catch (e) {
    if (!(e instanceof ContentErrors)) throw e;
    if (json) console.log(JSON.stringify({ ok: false, error: e.message, errors: e.errors.map(formatContentError) }));
    else {
      for (const error of e.errors) console.error(formatContentError(error));
      console.error(`\nexport failed: ${e.message}; nothing was written`);
    }
    return 1;
  }
  const { files, counts: summary } = exported;
  await mkdir(values.csv, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(values.csv, name), text);
  const shown = relative(process.cwd(), values.csv) || ".";
  if (json) console.log(JSON.stringify({ ok: true, csv: values.csv, files: Object.keys(files), ...summary }));
  else
    console.log(
      `wrote ${shown}/: tools.csv (${summary.tools} tools), plans.csv (${summary.plans} plans), categories.csv (${summary.categories} categories), site.csv`,
    );
  return 0;
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => json });
