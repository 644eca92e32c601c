// content:import reads the CSV files spreadsheets save, whatever their locale: the separator (`,` `;` tab) from the
// header row, decimal commas in `;` files, UTF-16 "Unicode text", flags as each spreadsheet writes them.
import { cp, readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readCell } from "../../../../scripts/content/csv/cells.ts";
import { importContentFromCsv } from "../../../../scripts/content/csv/import-sheets.ts";
import { readSheet, sniffSeparator } from "../../../../scripts/content/csv/read-sheet.ts";
import { CATEGORIES, PLANS } from "../../../../scripts/content/csv/sheets.ts";
import { formatContentError } from "../../../../scripts/content/errors.ts";
import { fixture, tempDir } from "../../../helpers/fs/dirs.ts";
import { hashTree } from "../../../helpers/fs/tree.ts";

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir("msapi-csv-sheets-");
});
afterEach(() => tmp.remove());

const utf8 = (text: string) => new TextEncoder().encode(text);
/** UTF-16 with its byte-order mark, as Excel's "Unicode text" saves (little-endian), or big-endian. */
function utf16(text: string, order: "le" | "be"): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xfeff, order === "le");
  for (let i = 0; i < text.length; i++) view.setUint16(2 + i * 2, text.charCodeAt(i), order === "le");
  return bytes;
}

describe("the tiny catalog as each spreadsheet saves it (test/fixtures/csv/saved-by/)", () => {
  // How each one writes a CSV file; every folder holds the tiny fixture's four sheets saved that way.
  const SAVED_BY: Record<string, string> = {
    // Excel in English rewrites dates as 10/1/2026, which says nothing of which is the month: these have the date
    // column formatted yyyy-mm-dd, as the docs say (and tools.date-as-excel-us-writes.csv of the bad files has not).
    "excel-us": '"CSV UTF-8": a BOM, CRLF, commas, TRUE/FALSE, multi-line cells quoted',
    "excel-de":
      '"CSV UTF-8" in a German locale: a BOM, CRLF, semicolons, decimal commas (4,5), WAHR/FALSCH, 01.10.2026',
    "excel-unicode-text": '"Unicode text": UTF-16 LE with a BOM, tabs, CRLF, TRUE/FALSE',
    libreoffice: "UTF-8 without a BOM, LF, commas, TRUE/FALSE",
    "google-sheets": "UTF-8 without a BOM, CRLF between rows and LF inside cells, no line break after the last row",
  };

  it("has a folder for each spreadsheet", async () => {
    expect((await readdir(fixture("csv/saved-by"))).sort()).toEqual(Object.keys(SAVED_BY).sort());
  });

  it.each(Object.entries(SAVED_BY))(
    "%s (%s) imports as the catalog it was saved from, changing no file",
    async (app) => {
      const content = join(tmp.path, "content");
      await cp(fixture("tiny"), content, { recursive: true });
      const before = await hashTree(content);
      const report = await importContentFromCsv(fixture(`csv/saved-by/${app}`), content, false);
      expect(report).toMatchObject({
        tools: { added: [], changed: [], removed: [] },
        categories: { added: [], changed: [], removed: [] },
        siteChanged: false,
      });
      expect(await hashTree(content)).toEqual(before);
    },
  );
});

describe("the separator", () => {
  it("is the one that splits the header row into the sheet's columns", () => {
    expect(sniffSeparator("tool,name,price,billing,features\r\n", PLANS)).toBe(",");
    expect(sniffSeparator("\ufefftool;name;price;billing;features\r\na;b;12,50;monthly;\r\n", PLANS)).toBe(";");
    expect(sniffSeparator("tool\tname\tprice\tbilling\tfeatures\n", PLANS)).toBe("\t");
    // A header cell written with a separator of another kind inside it still counts as one column.
    expect(sniffSeparator('"slug";"name";"topToolPick";"editorialNotes, notes"\n', CATEGORIES)).toBe(";");
  });

  it("is one for the whole file: a `;` file keeps its cells' commas, quotes and line breaks", () => {
    const text =
      "\ufefftool;name;price;billing;features\r\n" +
      'acme;"Pro; yearly";12,50;annual;"a, b\nsays ""hi"""\r\n' +
      "acme;Team;1250;monthly;\r\n" +
      "acme;Max;12.5;monthly;\r\n";
    const read = readSheet(PLANS, "plans.csv", utf8(text));
    expect(read.errors).toEqual([]);
    expect(read.rows.map((r) => r.fields)).toEqual([
      { tool: "acme", name: "Pro; yearly", price: 12.5, billing: "annual", features: ["a, b", 'says "hi"'] },
      { tool: "acme", name: "Team", price: 1250, billing: "monthly", features: [] },
      { tool: "acme", name: "Max", price: 12.5, billing: "monthly", features: [] },
    ]);
  });

  it("a `;` file refuses a number that is neither, saying both ways are fine", () => {
    const read = readSheet(PLANS, "plans.csv", utf8("tool;name;price;billing;features\nacme;Pro;1.250,50;annual;\n"));
    expect(read.errors.map(formatContentError)).toEqual([
      'plans.csv:2: price: expected a number (like 12,5 or 12.5) or an empty cell, got "1.250,50"',
    ]);
  });
});

describe("the encoding", () => {
  const plans = 'tool\tname\tprice\tbilling\tfeatures\r\nacme\tÑandú Pro\t12.5\tannual\t"one\r\ntwo"\r\n';
  const expected = [{ tool: "acme", name: "Ñandú Pro", price: 12.5, billing: "annual", features: ["one", "two"] }];

  it("reads UTF-16 with its byte-order mark, either byte order", () => {
    for (const order of ["le", "be"] as const) {
      const read = readSheet(PLANS, "plans.csv", utf16(plans, order));
      expect(read.errors, order).toEqual([]);
      expect(read.rows.map((r) => r.fields)).toEqual(expected);
    }
  });

  it("refuses UTF-16 without one in one line that says so", () => {
    const read = readSheet(PLANS, "plans.csv", utf16(plans, "le").subarray(2));
    expect(read.errors.map(formatContentError)).toEqual([
      "plans.csv:1: is UTF-16 text without a byte-order mark: save it as CSV UTF-8 (or as Unicode text, which has one)",
    ]);
  });
});

describe("a header row that does not name the columns", () => {
  it("is one error that says which columns were expected and what was found (here, site.csv's)", () => {
    const read = readSheet(
      CATEGORIES,
      "categories.csv",
      utf8("siteUrl,apiBaseUrl\nhttps://a.example,https://b.example\n"),
    );
    expect(read.errors.map(formatContentError)).toEqual([
      'categories.csv:1: the header row should name the columns slug, name, topToolPick, editorialNotes (topToolPick and editorialNotes may be left out), separated by commas, semicolons or tabs; found "siteUrl,apiBaseUrl"',
    ]);
  });

  it("accepts spaces around its names and any order", () => {
    const read = readSheet(CATEGORIES, "categories.csv", utf8("name ; slug\nCRM;crm\n"));
    expect(read.errors).toEqual([]);
    expect(read.rows.map((r) => r.fields)).toEqual([{ name: "CRM", slug: "crm" }]);
  });
});

describe("dates a spreadsheet wrote its own way", () => {
  const dates = (delimiter: string, ...cells: string[]) => {
    const text = [["tool", "name", "price", "billing", "features"].join(delimiter)];
    const sheet = { ...PLANS, columns: [...PLANS.columns, { name: "day", kind: "nullable-date" as const }] };
    text[0] += `${delimiter}day`;
    for (const cell of cells) text.push(["acme", "Pro", "1", "annual", "", cell].join(delimiter));
    const read = readSheet(sheet, "plans.csv", utf8(text.join("\r\n")));
    return read.errors.length > 0 ? read.errors.map(formatContentError) : read.rows.map((r) => r.fields.day);
  };

  it("are read day first with dots, and in a `;` file", () => {
    expect(dates(",", "1.10.2026", "2026-10-02", "")).toEqual(["2026-10-01", "2026-10-02", null]);
    expect(dates(";", "01/10/2026", "1-10-2026")).toEqual(["2026-10-01", "2026-10-01"]);
  });

  it("are read in the order the file's dates show, and refused when they show none", () => {
    expect(dates(",", "10/1/2026", "10/13/2026")).toEqual(["2026-10-01", "2026-10-13"]);
    expect(dates("\t", "1/10/2026", "13/10/2026")).toEqual(["2026-10-01", "2026-10-13"]);
    expect(dates(",", "10/1/2026")[0]).toMatch(
      /^plans\.csv:2: day: expected a date as YYYY-MM-DD, got "10\/1\/2026": .* format the column as yyyy-mm-dd/,
    );
    expect(dates(",", "2/30/2026", "1/13/2026")).toEqual([
      'plans.csv:2: day: expected a valid date, got "2/30/2026" (read month first)',
    ]);
    expect(dates(",", "10/1/26")[0]).toMatch(/got "10\/1\/26": its year has two digits/);
  });
});

describe("flags", () => {
  it("are read as spreadsheets write them, in their language", () => {
    for (const [cell, value] of [
      ["TRUE", true],
      ["False", false],
      ["WAHR", true],
      ["FALSCH", false],
      ["VRAI", true],
      ["FAUX", false],
      ["VERDADERO", true],
      ["FALSO", false],
    ] as const)
      expect(readCell("boolean", cell), cell).toEqual({ value });
    expect(readCell("boolean", "constructor")).toEqual({ error: 'expected true or false, got "constructor"' });
  });
});
