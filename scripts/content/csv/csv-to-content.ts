// The CSV files of a catalog → the content of its files, checked by the content's own validation (validate.ts, the
// zod schema's JSON Schema): an error found there is told at the CSV row and column it came from. All or nothing.
import { nearestName } from "../../cli/nearest-name.ts";
import type { ContentError } from "../errors.ts";
import type { ContentFile } from "../load.ts";
import { CategoryContent, PricingPlan, SiteSettings, ToolContent } from "../schema.ts";
import { validateContent } from "../validate.ts";
import { at, readSheet, type SheetRow } from "./read-sheet.ts";
import { CATEGORIES, PLAN_TOOL_COLUMN, PLANS, type Sheet, SITE, TOOLS } from "./sheets.ts";

/** A content file's data, in the field order new:tool and new:category write; `$schema` is added by the writer. */
export interface ImportedContent {
  /** absent when the CSV folder has no site.csv: site.json is then left as it is */
  site?: Record<string, unknown>;
  categories: Record<string, unknown>[];
  tools: Record<string, unknown>[];
}

export interface CsvInput {
  /** file name → bytes; site.csv may be missing */
  files: Partial<Record<Sheet["file"], Uint8Array>>;
  /** file name → the path to show in errors */
  shown: (file: Sheet["file"]) => string;
  /** the content folder's site.json, when there is no site.csv (checked with the rest) */
  existingSite?: ContentFile;
}

export type ImportResult = { ok: true; content: ImportedContent } | { ok: false; errors: ContentError[] };

/** Where each content file's fields came from: its row, and its plans' rows. */
interface Origin {
  sheet: Sheet;
  row: number;
  planRows?: number[];
}

const inOrder = (fields: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.flatMap((k) => (k in fields ? [[k, fields[k]]] : [])));

export function csvToContent(input: CsvInput): ImportResult {
  const errors: ContentError[] = [];
  let complete = true;
  const sheetRows = (sheet: Sheet): SheetRow[] => {
    const bytes = input.files[sheet.file];
    if (!bytes) {
      errors.push({
        file: input.shown(sheet.file),
        path: "",
        message: `missing: a catalog's CSV folder holds ${sheet.file}`,
      });
      complete = false;
      return [];
    }
    const read = readSheet(sheet, input.shown(sheet.file), bytes);
    errors.push(...read.errors);
    complete &&= read.complete;
    // A row whose slug (a plan's: its tool's) could not be read names nothing: its cell's error is enough.
    const key = sheet === PLANS ? PLAN_TOOL_COLUMN : "slug";
    if (sheet !== SITE && read.rows.some((r) => !(key in r.fields))) complete = false;
    return read.rows;
  };
  const toolRows = sheetRows(TOOLS);
  const planRows = sheetRows(PLANS);
  const categoryRows = sheetRows(CATEGORIES);
  const siteRows = input.files["site.csv"] ? sheetRows(SITE) : undefined;
  // A file or row that could not be read leaves others pointing at rows that are not there: what it says is enough.
  if (!complete) return { ok: false, errors: sortByFileAndRow(errors) };
  const fail = (sheet: Sheet, row: number, path: string, message: string) =>
    errors.push({ file: at(input.shown(sheet.file), row), path, message });
  /** A cell that could not be read is absent from its row: the schema's "required field is missing" only repeats that. */
  const unreadable = new Set(errors.map((e) => `${e.file}\t${e.path}`));

  const origins = new Map<string, Origin>();
  const files: { categories: ContentFile[]; tools: ContentFile[] } = { categories: [], tools: [] };
  /** One content file per row; a slug given twice is reported at both rows, and only its first row is checked. */
  const addFiles = (sheet: Sheet, rows: SheetRow[], into: ContentFile[]) => {
    const firstRow = new Map<string, number>();
    for (const r of rows) {
      const slug = String(r.fields.slug);
      const first = firstRow.get(slug);
      if (first !== undefined) {
        fail(sheet, r.row, "slug", `"${slug}" is also the slug of row ${first}: each ${sheet.row} has one row`);
        continue;
      }
      firstRow.set(slug, r.row);
      const file = `${sheet.file}#${r.row}`;
      origins.set(file, { sheet, row: r.row });
      into.push({ file, name: slug, data: r.fields });
    }
    return firstRow;
  };
  const toolSlugs = addFiles(TOOLS, toolRows, files.tools);
  addFiles(CATEGORIES, categoryRows, files.categories);

  // Plans join their tool, in the order of their rows.
  const plansOf = new Map<string, { plan: Record<string, unknown>; row: number }[]>();
  for (const r of planRows) {
    const tool = String(r.fields[PLAN_TOOL_COLUMN]);
    if (!toolSlugs.has(tool)) {
      const guess = nearestName(tool, toolSlugs.keys());
      fail(
        PLANS,
        r.row,
        PLAN_TOOL_COLUMN,
        `no tool "${tool}" in ${TOOLS.file}${guess ? ` (did you mean "${guess}"?)` : ""}`,
      );
      continue;
    }
    const list = plansOf.get(tool) ?? [];
    list.push({ plan: inOrder(r.fields, Object.keys(PricingPlan.shape)), row: r.row });
    plansOf.set(tool, list);
  }
  for (const f of files.tools) {
    const plans = plansOf.get(f.name) ?? [];
    f.data = inOrder({ ...(f.data as object), pricingPlans: plans.map((p) => p.plan) }, Object.keys(ToolContent.shape));
    origins.get(f.file)!.planRows = plans.map((p) => p.row);
  }
  for (const f of files.categories)
    f.data = inOrder(f.data as Record<string, unknown>, Object.keys(CategoryContent.shape));

  let site: ContentFile | undefined = input.existingSite;
  if (siteRows) {
    if (siteRows.length !== 1)
      fail(
        SITE,
        siteRows[1]?.row ?? 2,
        "",
        `${SITE.file} holds exactly one row under its header, found ${siteRows.length}`,
      );
    const first = siteRows[0];
    site = first && {
      file: `${SITE.file}#${first.row}`,
      name: "site",
      data: inOrder(first.fields, Object.keys(SiteSettings.shape)),
    };
    if (first) origins.set(site!.file, { sheet: SITE, row: first.row });
  } else if (!site)
    errors.push({
      file: input.shown(SITE.file),
      path: "",
      message: "missing, and the content folder has no site.json: export one with content:export",
    });

  const checked = validateContent({ site, categories: files.categories, tools: files.tools, errors: [] });
  if (!checked.ok)
    errors.push(
      ...checked.errors
        .map((e) => atCsvCell(e, origins, input.shown))
        .filter((e) => !unreadable.has(`${e.file}\t${e.path}`)),
    );
  if (errors.length > 0) return { ok: false, errors: sortByFileAndRow(errors) };
  return {
    ok: true,
    content: {
      site: siteRows ? (site?.data as Record<string, unknown>) : undefined,
      categories: files.categories.map((f) => f.data as Record<string, unknown>),
      tools: files.tools.map((f) => f.data as Record<string, unknown>),
    },
  };
}

/** `pricingPlans[2].features[0]` of the tool of tools.csv row 5 → plans.csv, that plan's row, column `features`. */
function atCsvCell(error: ContentError, origins: Map<string, Origin>, shown: CsvInput["shown"]): ContentError {
  const origin = origins.get(error.file);
  if (!origin) return error; // site.json of the content folder: its own errors
  const plan = /^pricingPlans\[(\d+)\](?:\.(.*))?$/.exec(error.path);
  if (plan && origin.planRows) {
    const row = origin.planRows[Number(plan[1])] ?? origin.row;
    return { file: at(shown(PLANS.file), row), ...inColumn(plan[2] ?? PLAN_TOOL_COLUMN, error.message) };
  }
  return { file: at(shown(origin.sheet.file), origin.row), ...inColumn(error.path, error.message) };
}

/** `pros[3]` → column `pros`, "entry 4: …" (entries are the lines of the cell). */
function inColumn(path: string, message: string): { path: string; message: string } {
  const entry = /^([^.[]+)\[(\d+)\](.*)$/.exec(path);
  if (entry) return { path: entry[1]!, message: `entry ${Number(entry[2]) + 1}${entry[3] ?? ""}: ${message}` };
  return { path, message };
}

const rowOf = (file: string) => Number(/:(\d+)$/.exec(file)?.[1] ?? 0);

function sortByFileAndRow(errors: ContentError[]): ContentError[] {
  const name = (file: string) => file.replace(/:\d+$/, "");
  return [...errors].sort((a, b) =>
    name(a.file) < name(b.file) ? -1 : name(a.file) > name(b.file) ? 1 : rowOf(a.file) - rowOf(b.file),
  );
}
