// One CSV file → its rows as field values, with every problem as `file:row: column: message`. Rows are numbered as
// a spreadsheet numbers them: the header is row 1, and a cell that spans lines is still one row.
import { parse } from "csv-parse/sync";
import { nearestName } from "../../cli/nearest-name.ts";
import type { ContentError } from "../errors.ts";
import { decodeUtf8 } from "../load.ts";
import { type DateOrder, LOCAL_DATE, readCell } from "./cells.ts";
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

/** What spreadsheets separate cells with: `,` (Excel in English, Google Sheets), `;` (Excel in most European
 * locales), a tab (Excel's "Unicode text"). */
export type Separator = "," | ";" | "\t";
const SEPARATORS: readonly Separator[] = [",", ";", "\t"];
const SEPARATOR_NAMES: Record<Separator, string> = { ",": "comma", ";": "semicolon", "\t": "tab" };

const utf16le = new TextDecoder("utf-16le", { fatal: true }); // strips the byte-order mark
const utf16be = new TextDecoder("utf-16be", { fatal: true });

/** The file's text: UTF-8 (a byte-order mark or none), or UTF-16 with its byte-order mark (Excel's "Unicode text"). */
function decodeSheet(bytes: Uint8Array): string | { error: string } {
  const decoder =
    bytes[0] === 0xff && bytes[1] === 0xfe ? utf16le : bytes[0] === 0xfe && bytes[1] === 0xff ? utf16be : undefined;
  if (decoder) {
    try {
      return decoder.decode(bytes);
    } catch {
      return { error: "is not valid UTF-16 text, though it starts as UTF-16 does: save it again as CSV UTF-8" };
    }
  }
  const text = decodeUtf8(bytes);
  if (typeof text === "string") return text;
  // Text in UTF-16 without a byte-order mark: about every other byte is 0 (the bytes cannot say in which order).
  const start = bytes.subarray(0, 1024);
  if (start.filter((b) => b === 0).length * 4 > start.length)
    return {
      error: "is UTF-16 text without a byte-order mark: save it as CSV UTF-8 (or as Unicode text, which has one)",
    };
  return { error: 'is not valid UTF-8: save CSV files as UTF-8 (Excel: "CSV UTF-8")' };
}

/** The header row's names; undefined when the row cannot be read as CSV (the whole file's reading says why). */
function headerRow(text: string, delimiter: Separator): string[] | undefined {
  try {
    const [row] = parse(text, { bom: true, delimiter, relax_column_count: true, to: 1 }) as string[][];
    // Spreadsheets keep a header cell as typed: a space after a separator is not part of the name.
    return (row ?? []).map((name) => name.trim());
  } catch {
    return undefined;
  }
}

const firstLine = (text: string) => /^\uFEFF?([^\r\n]*)/.exec(text)![1]!;

/**
 * The separator of a file, from its header row alone: the one that splits it into the most of the sheet's column
 * names, else the one it holds most of, else a comma. One separator for the whole file, since a list of candidates
 * given to the parser would also split a `;` file's decimal commas (`12,50`).
 */
export function sniffSeparator(text: string, sheet: Sheet): Separator {
  const headerLine = firstLine(text);
  const known = new Set(sheet.columns.map((c) => c.name));
  const score = (separator: Separator) => ({
    names: headerLine.split(separator).filter((cell) => known.has(cell.trim().replace(/^"(.*)"$/, "$1"))).length,
    count: headerLine.split(separator).length - 1,
  });
  let best: { separator: Separator; names: number; count: number } = { separator: ",", ...score(",") };
  for (const separator of SEPARATORS.slice(1)) {
    const s = score(separator);
    if (s.names > best.names || (s.names === best.names && s.count > best.count)) best = { separator, ...s };
  }
  return best.separator;
}

/** `bytes`: the file as read; `shownFile`: its path as the user sees it. */
export function readSheet(sheet: Sheet, shownFile: string, bytes: Uint8Array): SheetRead {
  const errors: ContentError[] = [];
  const fail = (row: number, path: string, message: string): SheetRead => {
    errors.push({ file: at(shownFile, row), path, message });
    return { rows: [], errors, complete: false };
  };
  const text = decodeSheet(bytes);
  if (typeof text !== "string") return fail(1, "", text.error);
  const delimiter = sniffSeparator(text, sheet);
  // The header row first: a file that does not name the sheet's columns (another file, another separator) is told
  // so, rather than the quote errors its rows cause when read with the wrong separator.
  const names = headerRow(text, delimiter);
  const headerProblem = names && checkHeader(sheet, names, firstLine(text));
  if (headerProblem) return fail(1, "", headerProblem);

  let records: string[][];
  try {
    // bom: a leading byte-order mark is dropped; CRLF, LF and quoted cells (separators, quotes, line breaks) are CSV.
    records = parse(text, { bom: true, delimiter, relax_column_count: true }) as string[][];
  } catch (e) {
    const err = e as { code?: string; records?: number; index?: number; message: string };
    if (err.records === undefined) throw e;
    const row = err.records + 1;
    const header =
      row > 1 ? (parse(text, { bom: true, delimiter, relax_column_count: true, to: 1 }) as string[][])[0] : undefined;
    const column = header?.[err.index ?? -1] ?? "";
    return fail(row, column, PARSE_PROBLEMS[err.code ?? ""] ?? err.message.split(":")[0]!);
  }

  const header = headerRow(text, delimiter) ?? [];

  // A `;` file comes from a locale that writes numbers with a decimal comma (`12,50`); a `,` file cannot hold one
  // unquoted, and a comma in a tab file may be a thousands separator (`1,250`), so only `;` files read it.
  const decimalComma = delimiter === ";";
  const dateOrders = new Map(
    sheet.columns
      .filter((c) => c.kind === "nullable-date")
      .map((c) => [
        c.name,
        dateOrder(
          delimiter,
          records.slice(1).map((cells) => cells[header.indexOf(c.name)] ?? ""),
        ),
      ]),
  );
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
        `has ${cells.length} cells, the header row has ${header.length}: a cell with a ${SEPARATOR_NAMES[delimiter]} must be quoted`,
      );
      complete = false;
      continue;
    }
    const fields: Record<string, unknown> = {};
    for (const column of sheet.columns) {
      const position = header.indexOf(column.name);
      // A row with fewer cells than the header: the missing cells are empty.
      const read = readCell(column.kind, position < 0 ? "" : (cells[position] ?? ""), {
        decimalComma,
        dateOrder: dateOrders.get(column.name),
      });
      if ("error" in read) fail(row, column.name, read.error);
      else if ("value" in read) fields[column.name] = read.value;
    }
    rows.push({ row, fields });
  }
  return { rows, errors, complete };
}

/**
 * What is wrong with a header row, in one message: each difference (or, when it names none of the columns, the row as
 * found) and the columns expected; undefined when it names every required column once and nothing else.
 */
function checkHeader(sheet: Sheet, header: string[], headerLine: string): string | undefined {
  const known = new Set(sheet.columns.map((c) => c.name));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) problems.push(`"${name}" appears twice`);
    else if (!known.has(name)) {
      const guess = nearestName(name, known);
      problems.push(
        `${name ? `"${name}"` : "an empty cell"} is not a column${guess ? ` (did you mean "${guess}"?)` : ""}`,
      );
    }
    seen.add(name);
  }
  const missing = sheet.columns.filter((c) => !c.optional && !seen.has(c.name)).map((c) => `"${c.name}"`);
  if (missing.length > 0) problems.push(`${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing`);
  if (problems.length === 0) return undefined;

  const optional = sheet.columns.filter((c) => c.optional).map((c) => c.name);
  const expected =
    `the header row should name the columns ${[...known].join(", ")}` +
    (optional.length > 0 ? ` (${optional.join(" and ")} may be left out)` : "");
  // A header that names none of the columns (another file's, another separator): its differences would only repeat it.
  if (!header.some((name) => known.has(name))) {
    const found = headerLine.length > 200 ? `${headerLine.slice(0, 200)}…` : headerLine;
    return `${expected}, separated by commas, semicolons or tabs; found ${JSON.stringify(found)}`;
  }
  return `${problems.join("; ")}: ${expected}`;
}

/**
 * Which comes first in the dates of a column a spreadsheet wrote its own way: day first in a `;` file (every locale
 * that saves `;` writes the day first); in another file, what its dates show (a 13 or more is a day), or nothing when
 * they show nothing (`10/1/2026`: US Excel writes the month first, British the day) or both.
 */
function dateOrder(delimiter: Separator, cells: string[]): DateOrder | undefined {
  if (delimiter === ";") return "day-first";
  const parts = cells.flatMap((cell) => {
    const m = LOCAL_DATE.exec(cell.trim());
    return m && m[2] !== "." ? [[Number(m[1]), Number(m[3])] as const] : [];
  });
  const dayFirst = parts.some(([a]) => a > 12);
  const monthFirst = parts.some(([, b]) => b > 12);
  return dayFirst === monthFirst ? undefined : dayFirst ? "day-first" : "month-first";
}
