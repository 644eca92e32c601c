// The content folder as CSV files a spreadsheet opens as they are (`npm run content:export`:
// scripts/commands/content-export.ts): read and checked as a build reads it, then written by content-to-csv.ts.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ContentErrors } from "../errors.ts";
import { loadContent } from "../load.ts";
import { validateContent } from "../validate.ts";
import { type CsvFiles, contentToCsv } from "./content-to-csv.ts";

/** Reads and checks the content folder, and returns the CSV files' text. Throws ContentErrors on invalid content. */
export async function contentAsSheets(contentDir: string): Promise<{ files: CsvFiles; counts: SheetCounts }> {
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

export interface SheetCounts {
  tools: number;
  plans: number;
  categories: number;
}

/**
 * Writes the content folder's CSV files into `csvDir` (made when missing; files of those names replaced): the names
 * written and what they hold. Throws ContentErrors, writing nothing, on invalid content.
 */
export async function writeSheets(
  contentDir: string,
  csvDir: string,
): Promise<{ files: string[]; counts: SheetCounts }> {
  const { files, counts } = await contentAsSheets(contentDir);
  await mkdir(csvDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(csvDir, name), text);
  return { files: Object.keys(files), counts };
}
