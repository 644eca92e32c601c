// What a spreadsheet makes of a text cell, and the marker that keeps text text (C5). A spreadsheet opening a CSV file reads
// `00042` as the number 42, `=2+3` as a formula, `1,000` in German as 1, `Jan 2` as a date and `TRUE` as a flag, and
// saves what it read: the text is gone, and nothing in the saved file says so. The export writes such texts with a
// leading apostrophe, `'00042`, which LibreOffice Calc keeps as a character of a text cell (measured: 7.4, en-US and
// de-DE, with and without its detection of special numbers and its evaluation of formulas), and the import removes it.
// An unmarked cell that looks like what a spreadsheet saves for a number, date, flag or formula error is refused: it
// may be a text the spreadsheet changed, or a value typed into it that it changed. docs/guide/content.md says it all
// in users' words.

/** The marker: one leading apostrophe, before a text that needsMarker() names, and before one that begins with `'`. */
export const TEXT_MARKER = "'";

/**
 * The words spreadsheets save a flag as: English, and the words Excel and LibreOffice write in the locales that save
 * `;`-separated files (a flag cell is written in the spreadsheet's language: WAHR, VRAI, …).
 */
export const FLAG_WORDS = new Map<string, boolean>([
  ["true", true],
  ["false", false],
  ["wahr", true],
  ["falsch", false],
  ["vrai", true],
  ["faux", false],
  ["verdadero", true],
  ["verdadeiro", true],
  ["vero", true],
  ["falso", false],
  ["waar", true],
  ["onwaar", false],
]);

const isFlagWord = (text: string) => FLAG_WORDS.has(text.trim().toLowerCase());

/**
 * Whether the export writes a text with the marker. A sound superset of what LibreOffice converts, by its first
 * characters rather than by each locale's number and date syntax (which differ by spreadsheet and locale):
 * - the marker itself, and OWASP's formula prefixes `=` `+` `-` `@`, a tab, a line break (and their full-width forms);
 * - after spaces, a digit, a sign, `.`, `,`, `(` or a currency sign: numbers in every notation, dates, times,
 *   percentages, `(42)`;
 * - a flag word, in any case and between spaces;
 * - a word of three letters or more, then a number: a month (`Jan 2`, `Sept 5`, `Mrz 3`, `Jänner 2`, `Mai 2024`),
 *   which also marks harmless texts such as `Version 2`;
 * - anything the import would refuse unmarked (rewrittenAs: `#N/A`, `Err:508`), so that no export is refused.
 */
export function needsMarker(text: string): boolean {
  if (text === "") return false;
  return (
    /^['=+\-@\t\r\n＝＋－＠]/u.test(text) ||
    /^\s*[\p{Nd}.,(\p{Sc}=+\-−@]/u.test(text) ||
    isFlagWord(text) ||
    /^\s*\p{L}{3,}\.?[\s\-/.,]*\p{Nd}/u.test(text) ||
    rewrittenAs(text) !== undefined
  );
}

/** A text as the export writes it: with the marker when needsMarker() says so. */
export const markText = (text: string) => (needsMarker(text) ? `${TEXT_MARKER}${text}` : text);

// What spreadsheets save for a value they converted, the whole cell between spaces. Spaces inside: ASCII, no-break and
// narrow no-break (the grouping and percent spaces of European locales); never a line break, since a cell of several
// lines is never converted.
const SPACES = " \\u00a0\\u202f";
const SPACE = `[${SPACES}]`;
const AMOUNT =
  `[-+−]?(?:\\p{Sc}${SPACE}?)?[-+−]?(?:\\d[\\d,.'’${SPACES}]*)?[.,]?\\d+(?:[eE][-+]?\\d+)?` +
  `(?:${SPACE}?%)?(?:${SPACE}?\\p{Sc})?`;
/** 42, -42, (42), 1000,5, 1.00E+05, 1,00E+05, 50.00%, 50,00 %, $5.00, 5,00 €, 1,234,567.8 */
const NUMBER = new RegExp(`^(?:${AMOUNT}|\\(${AMOUNT}\\))$`, "u");
const CLOCK = `\\d{1,2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:${SPACE}?[AaPp]\\.?[Mm]\\.?)?`;
/** 01/02/24, 02.01.24, 2024-01-02, 1/2/2026 3:45 PM, 03:45:00 AM, 12:30:00 */
const DATE_OR_TIME = new RegExp(`^(?:\\d{1,4}[./-]\\d{1,2}[./-]\\d{1,4}\\.?(?:[ T]${CLOCK})?|${CLOCK})$`, "u");
/** The months of the tested locales (English, German, Austrian German), as Excel writes them in a date: `2-Jan`. */
const MONTH =
  "(?:jan(?:uary|uar)?|jän(?:ner)?|feb(?:ruary|ruar)?|mar(?:ch)?|mär(?:z)?|mrz|apr(?:il)?|may|mai|jun[ei]?|jul[iy]?|" +
  "aug(?:ust)?|sept?(?:ember)?|o[ck]t(?:ober)?|nov(?:ember)?|de[cz](?:ember)?)\\.?";
/** 2-Jan, 02. Jan, 2 Jan 2024, Jan-24, Jan 2, 2024 */
const MONTH_DATE = new RegExp(
  `^(?:\\d{1,2}\\.?[-${SPACES}]{0,2}${MONTH}(?:[-${SPACES}]\\d{2,4})?|${MONTH}[-${SPACES}]\\d{1,4}(?:,?${SPACE}\\d{4})?)$`,
  "iu",
);
/** A formula's error, as Excel, Google Sheets (#…) and LibreOffice (Err:508, #NAME?) save it. */
const FORMULA_ERROR =
  /^(?:#(?:NULL!|DIV\/0!|VALUE!|REF!|NAME\?|NUM!|N\/A|SPILL!|CALC!|FIELD!|BLOCKED!|UNKNOWN!|CONNECT!|BUSY!|ERROR!|GETTING_DATA)|Err:\d{3})$/u;

/**
 * What an unmarked cell looks like when it looks like what a spreadsheet saves for a number, a date or time, a flag or
 * a formula's error: "a number", …; undefined for any other text. The whole cell counts, so `3 seats` is text, and a
 * cell of several lines, which a spreadsheet never converts, is text too.
 */
export function rewrittenAs(cell: string): string | undefined {
  if (/[\r\n]/.test(cell)) return undefined;
  const text = cell.trim();
  if (text === "") return undefined;
  if (isFlagWord(text)) return "a flag (true or false)";
  if (FORMULA_ERROR.test(text)) return "a formula's error";
  if (NUMBER.test(text)) return "a number";
  if (DATE_OR_TIME.test(text) || MONTH_DATE.test(text)) return "a date or a time";
  return undefined;
}
