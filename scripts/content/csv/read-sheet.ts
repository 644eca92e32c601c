// One CSV file → its rows as field values, with every problem as `file:row: column: message`. Rows are numbered as
// a spreadsheet numbers them: the header is row 1, and a cell that spans lines is still one row.
import { parse } from "csv-parse/sync";
import { nearestName } from "../../cli/nearest-name.ts";
import type { ContentError } from "../errors.ts";
import { decodeUtf8 } from "../load.ts";
import { readCell } from "./cells.ts";
import type { Sheet } from "./sheets.ts";

export interface SheetRow {
  /** the spreadsheet's row number (the header is 1) */
  row: number;
  /** column name → value; a column whose empty cell leaves its field out is absent */
  fields: Record<string, unknown>;
}

export interface SheetRead {
  rows: SheetRow[];
  /** every problem found, and each cell whose value could not be read is one of them */
  errors: ContentError[];
  /** false when a row (or the whole file) could not be read as rows: then other files' references to it are not checked */
  complete: boolean;
}

/** Where an error is: `tools.csv:5` (the file as shown, and the row). */
export const at = (shownFile: string, row: number) => `${shownFile}:${row}`;

const PARSE_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: "a quoted cell is never closed (a missing closing quote)",
  INVALID_OPENING_QUOTE:
    'a quote inside a cell that does not start with one: quote the cell and double its quotes ("")',
  CSV_INVALID_CLOSING_QUOTE: "text after a quoted cell's closing quote: quote the whole cell and double its quotes",
};

/** `bytes`: the file as read; `shownFile`: its path as the user sees it. */
export function readSheet(sheet: Sheet, shownFile: string, bytes: Uint8Array): SheetRead {
  const errors: ContentError[] = [];
  const fail = (row: number, path: string, message: string): SheetRead => {
    errors.push({ file: at(shownFile, row), path, message });
    return { rows: [], errors, complete: false };
  };
  const text = decodeUtf8(bytes);
  if (typeof text !== "string") return fail(1, "", text.error.replace("content files", "CSV files"));

  let records: string[][];
  try {
    // bom: a leading byte-order mark is dropped; CRLF, LF and quoted cells (commas, quotes, line breaks) are CSV.
    records = parse(text, { bom: true, relax_column_count: true }) as string[][];
  } catch (e) {
    const err = e as { code?: string; records?: number; index?: number; message: string };
    if (err.records === undefined) throw e;
    const row = err.records + 1;
    const header = row > 1 ? (parse(text, { bom: true, relax_column_count: true, to: 1 }) as string[][])[0] : undefined;
    const column = header?.[err.index ?? -1] ?? "";
    return fail(row, column, PARSE_PROBLEMS[err.code ?? ""] ?? err.message.split(":")[0]!);
  }

  const header = records[0] ?? [];
  const known = new Set(sheet.columns.map((c) => c.name));
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) fail(1, name, "this column appears twice");
    else if (!known.has(name)) {
      const guess = nearestName(name, known);
      fail(
        1,
        name || `(column ${header.indexOf(name) + 1})`,
        `unknown column${guess ? ` (did you mean "${guess}"?)` : ""}: the columns of ${sheet.file} are ${[...known].join(", ")}`,
      );
    }
    seen.add(name);
  }
  for (const column of sheet.columns)
    if (!column.optional && !seen.has(column.name)) fail(1, column.name, "this column is missing from the header row");
  if (errors.length > 0) return { rows: [], errors, complete: false };

  const rows: SheetRow[] = [];
  let complete = true;
  for (const [index, cells] of records.entries()) {
    if (index === 0) continue;
    const row = index + 1;
    // Spreadsheets save blank rows (often trailing) as empty lines or as rows of empty cells.
    if (cells.every((c) => c === "")) continue;
    if (cells.length > header.length) {
      fail(
        row,
        "",
        `has ${cells.length} cells, the header row has ${header.length}: a cell with a comma must be quoted`,
      );
      complete = false;
      continue;
    }
    const fields: Record<string, unknown> = {};
    for (const column of sheet.columns) {
      const position = header.indexOf(column.name);
      // A row with fewer cells than the header: the missing cells are empty.
      const read = readCell(column.kind, position < 0 ? "" : (cells[position] ?? ""));
      if ("error" in read) fail(row, column.name, read.error);
      else if ("value" in read) fields[column.name] = read.value;
    }
    rows.push({ row, fields });
  }
  return { rows, errors, complete };
}
