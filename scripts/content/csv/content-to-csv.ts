// Valid content → the text of each CSV file: UTF-8 with a byte-order mark (without one, Excel reads UTF-8 as the
// local code page), CRLF between rows (RFC 4180), a header row, every text cell quoted. Pure: the command writes the
// files.
import { stringify } from "csv-stringify/sync";
import type { ContentError } from "../errors.ts";
import { isTextKind, writeCell } from "./cells.ts";
import { CATEGORIES, PLAN_TOOL_COLUMN, PLANS, type Sheet, SITE, TOOLS } from "./sheets.ts";

export interface ContentRecords {
  site: { file: string; data: Record<string, unknown> };
  categories: readonly { file: string; data: Record<string, unknown> }[];
  tools: readonly { file: string; data: Record<string, unknown> }[];
}

export type CsvFiles = Record<Sheet["file"], string>;

const BOM = "\ufeff";

export function contentToCsv(
  content: ContentRecords,
): { ok: true; files: CsvFiles } | { ok: false; errors: ContentError[] } {
  const errors: ContentError[] = [];
  const rowOf = (sheet: Sheet, file: string, data: Record<string, unknown>, prefix = "") =>
    sheet.columns.map(({ name, kind }) => {
      const written = writeCell(kind, data[name]);
      if ("error" in written) {
        errors.push({ file, path: `${prefix}${name}`, message: `cannot go into a CSV cell: ${written.error}` });
        return "";
      }
      return written.cell;
    });
  const table = (sheet: Sheet, rows: string[][]) =>
    BOM +
    stringify([sheet.columns.map((c) => c.name), ...rows], {
      record_delimiter: "windows",
      // csv-stringify quotes a cell holding its record delimiter (CRLF), not a bare LF, which spreadsheets also end rows at.
      quoted_match: /[\r\n]/,
      cast: {
        // Every text cell is quoted, the header's names and the cells of numbers, flags and dates are not: a quoted
        // cell is one cell whatever separators a spreadsheet's import is set to split at (LibreOffice ticks `,`,
        // `;` and tab), and keeps its spaces when the import trims unquoted cells.
        string: (value, { column, records }) =>
          records > 0 && value !== "" && isTextKind(sheet.columns[Number(column)]!.kind)
            ? { value, quoted: true }
            : value,
      },
    });

  const tools = content.tools.map(({ file, data }) => rowOf(TOOLS, file, data));
  const plans = content.tools.flatMap(({ file, data }) =>
    (data.pricingPlans as Record<string, unknown>[]).map((plan, i) =>
      rowOf(PLANS, file, { ...plan, [PLAN_TOOL_COLUMN]: data.slug }, `pricingPlans[${i}].`),
    ),
  );
  const categories = content.categories.map(({ file, data }) => rowOf(CATEGORIES, file, data));
  const site = [rowOf(SITE, content.site.file, content.site.data)];
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    files: {
      "tools.csv": table(TOOLS, tools),
      "plans.csv": table(PLANS, plans),
      "categories.csv": table(CATEGORIES, categories),
      "site.csv": table(SITE, site),
    },
  };
}
