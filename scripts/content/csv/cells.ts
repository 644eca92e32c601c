// One spreadsheet cell ↔ one content field value, by the field's kind. Reading says what was wrong in the words of
// the content's own errors ("expected a number, got "12,50""); the schema then checks ranges, formats and lengths.
// Texts carry the marker of text-marker.ts where a spreadsheet would read them as something else.
import { FLAG_WORDS, markText, rewrittenAs, TEXT_MARKER } from "./text-marker.ts";

/** How a field is written in its cell. An empty cell means null, an empty list, or an absent field, by kind. */
export type CellKind =
  | "text" // a string; empty is ""
  | "optional-text" // a string; empty leaves the field out
  | "nullable-text" // a string; empty is null
  | "nullable-date" // YYYY-MM-DD, or a spreadsheet's own way of writing a date; empty is null
  | "nullable-number" // a decimal number; empty is null
  | "nullable-integer" // a whole number; empty is null
  | "optional-integer" // a whole number; empty leaves the field out
  | "boolean" // true or false (any case, as spreadsheets save them)
  | "list"; // one entry per line of the cell; empty is []

/** The separator of a list's entries inside one cell: a line break (Alt+Enter in Excel, Ctrl+Enter in Sheets). */
export const LIST_SEPARATOR = "\n";

export type CellRead = { value: unknown } | { absent: true } | { error: string };

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
/** A decimal comma, as spreadsheets in most European locales write numbers: `12,50`. */
const DECIMAL_COMMA_NUMBER = /^-?(?:0|[1-9][0-9]*),[0-9]+$/;
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

export interface CellOptions {
  /** the file is `;`-separated: a number may be written with a decimal comma */
  decimalComma?: boolean;
  /** which comes first in a date a spreadsheet wrote its own way (`10/1/2026`), when the file shows it */
  dateOrder?: DateOrder;
}

export type DateOrder = "day-first" | "month-first";

/**
 * A date as spreadsheets rewrite YYYY-MM-DD on opening a file: Excel for Windows in English `10/1/2026`, in most
 * of Europe `01.10.2026` or `01/10/2026`. Days and months of one or two digits, the year of four.
 */
export const LOCAL_DATE = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4})$/;
const TWO_DIGIT_YEAR = /^\d{1,2}([./-])\d{1,2}\1\d{2}$/;
const REWRITE_HINT = "format the column as yyyy-mm-dd (Excel: Format Cells, Custom) and save again";

/** `10/1/2026` → `2026-10-01` in the order given (a date with dots is always day first); an error otherwise. */
function readLocalDate(cell: string, order: DateOrder | undefined): CellRead {
  const [, a, separator, b, year] = LOCAL_DATE.exec(cell)!;
  const known = separator === "." ? "day-first" : order;
  if (!known)
    return {
      error:
        `expected a date as YYYY-MM-DD, got ${JSON.stringify(cell)}: the spreadsheet wrote it its own way, and ` +
        `no date of this file says whether the day or the month comes first; ${REWRITE_HINT}`,
    };
  const [day, month] = (known === "day-first" ? [a, b] : [b, a]).map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(Number(year), month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth)
    return { error: `expected a valid date, got ${JSON.stringify(cell)} (read ${known.replace("-", " ")})` };
  return { value: `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}` };
}

/**
 * A text cell's text: without its marker, or, unmarked, as it is, unless it looks like what a spreadsheet saves for a
 * value it converted: the export never writes such a text unmarked, so the spreadsheet may have changed it.
 */
function readText(cell: string): { value: string } | { error: string } {
  if (cell.startsWith(TEXT_MARKER)) return { value: cell.slice(TEXT_MARKER.length) };
  const looksLike = rewrittenAs(cell);
  if (looksLike === undefined) return { value: cell };
  return {
    error:
      `${JSON.stringify(cell)} is ${looksLike} as a spreadsheet saves one, not a text as the export writes it ` +
      `(${TEXT_MARKER}${cell}): the spreadsheet may have changed this cell. To keep it as text, type ` +
      `${TEXT_MARKER}${TEXT_MARKER}${cell} (a spreadsheet takes the first ${TEXT_MARKER} as "this is text" and keeps the second)`,
  };
}

/** A list entry's text: without its marker. */
const unmarked = (entry: string) => (entry.startsWith(TEXT_MARKER) ? entry.slice(TEXT_MARKER.length) : entry);

export function readCell(kind: CellKind, cell: string, options: CellOptions = {}): CellRead {
  const empty = cell === "";
  switch (kind) {
    case "text":
      return readText(cell);
    case "optional-text":
      return empty ? { absent: true } : readText(cell);
    case "nullable-text":
      return empty ? { value: null } : readText(cell);
    case "nullable-date": {
      if (empty) return { value: null };
      const date = cell.trim();
      if (LOCAL_DATE.test(date)) return readLocalDate(date, options.dateOrder);
      if (TWO_DIGIT_YEAR.test(date))
        return {
          error: `expected a date as YYYY-MM-DD, got ${JSON.stringify(cell)}: its year has two digits; ${REWRITE_HINT}`,
        };
      return { value: cell }; // YYYY-MM-DD, or text the schema's date check names
    }
    case "nullable-number":
      if (empty) return { value: null };
      if (NUMBER.test(cell.trim())) return { value: Number(cell.trim()) };
      if (options.decimalComma && DECIMAL_COMMA_NUMBER.test(cell.trim()))
        return { value: Number(cell.trim().replace(",", ".")) };
      return {
        error: `expected a number (like ${options.decimalComma ? "12,5 or 12.5" : "12.5"}) or an empty cell, got ${JSON.stringify(cell)}`,
      };
    case "nullable-integer":
    case "optional-integer":
      if (empty) return kind === "optional-integer" ? { absent: true } : { value: null };
      return INTEGER.test(cell.trim())
        ? { value: Number(cell.trim()) }
        : { error: `expected a whole number or an empty cell, got ${JSON.stringify(cell)}` };
    case "boolean": {
      const value = FLAG_WORDS.get(cell.trim().toLowerCase());
      if (value !== undefined) return { value };
      return { error: `expected true or false, got ${JSON.stringify(cell)}` };
    }
    case "list": {
      if (empty) return { value: [] };
      // A spreadsheet converts a cell as a whole, and never one of several lines: one entry is read as a text.
      const lines = cell.split(/\r\n|\n|\r/); // a spreadsheet saved with CRLF may keep CRLF inside a cell too
      if (lines.length === 1) {
        const read = readText(cell);
        return "error" in read ? read : { value: [read.value] };
      }
      return { value: lines.map(unmarked) };
    }
  }
}

/** Whether a kind's cells hold text (written quoted, with the marker where needed). */
export const isTextKind = (kind: CellKind) =>
  kind === "text" || kind === "optional-text" || kind === "nullable-text" || kind === "list";

/**
 * A number as a spreadsheet reads it back as the same number in English and in German: plain decimal with a point,
 * and a fraction of exactly three digits written with a fourth, `0` (`1.2340`): German reads `1.234` as 1234 (a
 * thousands group) and `1.2340` as the text `1.2340`, which the import reads as 1.234. An error when no cell can
 * hold it: spreadsheets keep 15 significant digits, and round a number written with an exponent.
 */
function writeNumber(value: number): { cell: string } | { error: string } {
  if (!Number.isFinite(value)) return { error: `${value} is not a number a spreadsheet holds` };
  if (Number(value.toPrecision(15)) !== value)
    return { error: `${value} has more than 15 significant digits: a spreadsheet keeps 15` };
  const cell = String(value);
  if (/e/i.test(cell)) return { error: `${cell} is written with an exponent, which a spreadsheet rounds` };
  return { cell: /\.\d{3}$/.test(cell) ? `${cell}0` : cell };
}

/** A text's cell: with the marker where a spreadsheet would read it as something else. */
function writeText(text: string): { cell: string } | { error: string } {
  if (text.includes("\r"))
    return { error: "holds a carriage return (CR): a spreadsheet saves it as a line break (LF), not as it was" };
  return { cell: markText(text) };
}

/**
 * The cell of a field's value, or why it has none: a list entry that is empty or holds a line break, an optional
 * text that is present but empty, a text with a carriage return and a number no spreadsheet keeps would not come
 * back as they were.
 */
export function writeCell(kind: CellKind, value: unknown): { cell: string } | { error: string } {
  if (value === undefined || value === null) return { cell: "" };
  switch (kind) {
    case "list": {
      const entries = value as string[];
      const bad = entries.findIndex((e) => e === "" || /[\r\n]/.test(e));
      if (bad >= 0)
        return {
          error: `entry ${bad + 1} is ${entries[bad] === "" ? "empty" : "split over lines"}: a list's cell holds one entry per line`,
        };
      // Each entry marked on its own: an entry moved to another line keeps its marker's meaning.
      return { cell: entries.map(markText).join(LIST_SEPARATOR) };
    }
    case "optional-text":
      return value === ""
        ? { error: "is an empty text: an empty cell would leave the field out" }
        : writeText(value as string);
    case "text":
    case "nullable-text":
      return writeText(value as string);
    case "boolean":
      return { cell: value ? "true" : "false" };
    case "nullable-number":
    case "nullable-integer":
    case "optional-integer":
      return writeNumber(value as number);
    case "nullable-date":
      return { cell: value as string };
  }
}
