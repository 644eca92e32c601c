// Text stays text: the export marks every text a spreadsheet would read as something else with a leading `'`, quotes
// every text cell, writes numbers German reads back as the same; the import removes the marker and refuses an unmarked
// cell that looks like what a spreadsheet saves for a value it converted.
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readCell, writeCell } from "../../../scripts/content/csv/cells.ts";
import { contentToCsv } from "../../../scripts/content/csv/content-to-csv.ts";
import { csvToContent } from "../../../scripts/content/csv/csv-to-content.ts";
import { importContentFromCsv } from "../../../scripts/content/csv/import-sheets.ts";
import { needsMarker, rewrittenAs } from "../../../scripts/content/csv/text-marker.ts";
import { ContentErrors, formatContentError } from "../../../scripts/content/errors.ts";
import { MULTI_LINE_TEXTS, PROVOKING_TEXTS, provokingCatalog } from "../../helpers/content/provoking-catalog.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir("msapi-csv-marker-");
});
afterEach(() => tmp.remove());

const encoder = new TextEncoder();
const records = <T>(items: readonly T[], file: (item: T) => string) =>
  items.map((item) => ({ file: file(item), data: item as unknown as Record<string, unknown> }));

/** The provoking catalog as content:export writes it. */
function exported() {
  const catalog = provokingCatalog();
  const csv = contentToCsv({
    site: { file: "site.json", data: catalog.site as Record<string, unknown> },
    categories: records(catalog.categories, (c) => `categories/${c.slug}.json`),
    tools: records(catalog.tools, (t) => `tools/${t.slug}.json`),
  });
  if (!csv.ok) throw new Error(csv.errors.map(formatContentError).join("\n"));
  return { catalog, files: csv.files };
}

// What LibreOffice Calc 7.4 saved for a text the export wrote unmarked, in en-US or de-DE, with its detection of
// special numbers and its evaluation of formulas on or off (measured: docs/guide/content.md).
const CHANGED_BY_LIBREOFFICE: readonly [written: string, saved: string][] = [
  ["00042", "42"],
  [" 00042", "42"],
  ["=2+3", "5"],
  ["+1", "1"],
  ["-0", "0"],
  ["1e5", "1.00E+05"],
  ["1e5", "1,00E+05"],
  ["1E-3", "0,001"],
  ["1,000", "1"],
  ["1,000", "1000"],
  ["1.000", "1000"],
  ["1.000,5", "1000,5"],
  ["12.50", "12.5"],
  ["12,50", "12,5"],
  [".5", "0.5"],
  ["5.", "5"],
  ["1.234", "1234"],
  ["0.30000000000000004", "0.3"],
  ["123456789012345678", "1,23456789012346E+017"],
  ["50%", "50.00%"],
  ["50%", "50,00\u00a0%"],
  ["$5", "$5.00"],
  ["€5", "5"],
  ["(42)", "-42"],
  ["01/02/2024", "01/02/24"],
  ["02.01.2024", "02.01.24"],
  ["1/2", "01/02/26"],
  ["2024-1-2", "2024-01-02"],
  ["1.5.", "01.05.26"],
  ["Jan 2", "01/02/26"],
  ["Jan 2", "01.01.02"],
  ["Mrz 3", "01.03.03"],
  ["Jänner 2", "01.01.02"],
  ["Sept 5", "09/05/26"],
  ["Dec-24", "12/24/26"],
  ["2 Jan", "02.01.26"],
  ["3:45", "03:45:00 AM"],
  ["3:45", "03:45:00"],
  ["3 PM", "03:00:00 PM"],
  ["true", "TRUE"],
  [" true", "TRUE"],
  ["wahr", "WAHR"],
  ['=HYPERLINK("http://x.example","x")', "Err:508"],
];

describe("the marker rule", () => {
  it("marks every text LibreOffice changed, and refuses unmarked what it saved instead", () => {
    for (const [written, saved] of CHANGED_BY_LIBREOFFICE) {
      expect(needsMarker(written), written).toBe(true);
      expect(rewrittenAs(saved), `${written} → ${saved}`).toBeDefined();
    }
  });

  it("marks OWASP's formula prefixes and the marker itself", () => {
    for (const text of ["=1", "+1", "-x", "@x", "\tx", "\rx", "\nx", "＝1", "＋1", "－1", "＠x", "'x", "'"])
      expect(needsMarker(text), JSON.stringify(text)).toBe(true);
  });

  it("leaves ordinary text alone, on both sides", () => {
    for (const text of ["plain text", "Pro", "https://x.example", "日本語", "Q1 2024", "NaN"]) {
      expect(needsMarker(text), text).toBe(false);
      expect(rewrittenAs(text), text).toBeUndefined();
    }
    // Whole cells count on the import's side: a text that begins like a number is taken as typed.
    for (const text of ["3 seats", "10,000 monthly events", "24/7 support", "-x", "=A1", "+49 30 12 x", "Version 2"])
      expect(rewrittenAs(text), text).toBeUndefined();
    // A spreadsheet never converts a cell of several lines.
    for (const text of ["1\n2", "TRUE\n", "42\r\n"]) expect(rewrittenAs(text), JSON.stringify(text)).toBeUndefined();
  });

  it("never refuses what the export writes unmarked: the import's rule is inside the export's", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom(...PROVOKING_TEXTS), fc.stringMatching(/^[\d .,:%$€()-]+$/)),
        (s) => (rewrittenAs(s) === undefined ? true : needsMarker(s)),
      ),
      { numRuns: 2000 },
    );
  });
});

describe("a cell and back", () => {
  it("brings back every text, with or without a marker, exactly", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }).filter((s) => !s.includes("\r")),
        (text) => {
          const written = writeCell("text", text);
          expect(written).toEqual({ cell: needsMarker(text) ? `'${text}` : text });
          expect(readCell("text", (written as { cell: string }).cell)).toEqual({ value: text });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("marks each entry of a list on its own line", () => {
    expect(writeCell("list", ["00042", "fast", "'x"])).toEqual({ cell: "'00042\nfast\n''x" });
    expect(readCell("list", "'00042\nfast\n''x")).toEqual({ value: ["00042", "fast", "'x"] });
    // An entry moved to the first line, or its line moved away, keeps its meaning.
    expect(readCell("list", "fast\n'00042")).toEqual({ value: ["fast", "00042"] });
  });

  it("refuses a text with a carriage return: a spreadsheet saves it as a line feed", () => {
    expect(writeCell("text", "a\r\nb")).toEqual({
      error: "holds a carriage return (CR): a spreadsheet saves it as a line break (LF), not as it was",
    });
  });

  it("writes numbers that read back the same in English and German, and refuses what no cell keeps", () => {
    const cell = (n: number) => writeCell("nullable-number", n);
    expect([1.234, 0.125, 1234.567, 12.5, 19.99, 1000, 0, 0.001, 4.5].map((n) => cell(n))).toEqual(
      ["1.2340", "0.1250", "1234.5670", "12.5", "19.99", "1000", "0", "0.0010", "4.5"].map((c) => ({ cell: c })),
    );
    expect(readCell("nullable-number", "1.2340")).toEqual({ value: 1.234 });
    expect(cell(0.1 + 0.2)).toEqual({
      error: "0.30000000000000004 has more than 15 significant digits: a spreadsheet keeps 15",
    });
    expect(cell(1e21)).toEqual({ error: "1e+21 is written with an exponent, which a spreadsheet rounds" });
    expect(cell(1e-7)).toEqual({ error: "1e-7 is written with an exponent, which a spreadsheet rounds" });
  });
});

describe("content:export of a catalog written to provoke a spreadsheet", () => {
  it("quotes every text cell, and no text cell begins with = + - @, a tab or a carriage return", () => {
    const { files } = exported();
    let texts = 0;
    for (const [name, text] of Object.entries(files)) {
      // The cells as written, quotes and all: csv-parse's `raw` keeps each record's text.
      const rows = parse(text, { bom: true, raw: true, relax_column_count: true }) as unknown as {
        raw: string;
        record: string[];
      }[];
      const header = rows[0]!.record;
      for (const { raw } of rows.slice(1)) {
        const cells = splitRaw(raw);
        for (const [i, written] of cells.entries()) {
          const column = header[i]!;
          const numeric = /^(rating|freeTrialDays|moneyBackDays|price|cacheMaxAge|cacheStaleWhileRevalidate)$/.test(
            column,
          );
          const flagOrDate = /^(has[A-Z]\w+|pricingLastVerified)$/.test(column);
          if (written === "" || numeric || flagOrDate) {
            expect(written.startsWith('"'), `${name} ${column} ${written}`).toBe(false);
            continue;
          }
          texts++;
          expect(written, `${name} ${column}`).toMatch(/^".*"$/s);
          expect(written.slice(1), `${name} ${column}`).not.toMatch(/^[=+\-@\t\r＝＋－＠]/u);
        }
      }
    }
    expect(texts).toBeGreaterThan(PROVOKING_TEXTS.length * 8);
  });

  it("imports back as the same catalog", () => {
    const { catalog, files } = exported();
    const back = csvToContent({
      files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, encoder.encode(v)])),
      shown: (f) => f,
    });
    if (!back.ok) throw new Error(back.errors.map(formatContentError).join("\n"));
    expect(back.content.tools).toEqual(catalog.tools);
    expect(back.content.categories).toEqual(catalog.categories);
    expect(back.content.site).toEqual(catalog.site);
    expect(MULTI_LINE_TEXTS.every((t) => JSON.stringify(back.content).includes(JSON.stringify(t).slice(1, -1)))).toBe(
      true,
    );
  });
});

describe("content:import of a cell a spreadsheet changed", () => {
  it("refuses the issue's three, one line per cell, and writes nothing", async () => {
    // The tiny catalog's export, with what LibreOffice saved for an unmarked pro `00042` (42), con `=2+3` (5) and, in
    // German, plan feature `1,000` (1).
    const csv = join(tmp.path, "csv");
    await cp(fixture("csv/tiny"), csv, { recursive: true });
    const tools = await readFile(join(csv, "tools.csv"), "utf8");
    await writeFile(join(csv, "tools.csv"), tools.replace('"fast","young"', "42,5"));
    const plans = await readFile(join(csv, "plans.csv"), "utf8");
    await writeFile(join(csv, "plans.csv"), plans.replace('"unlimited"', "1"));
    const content = join(tmp.path, "content");
    await cp(fixture("tiny"), content, { recursive: true });
    const tree = await hashTree(content);
    const error = await importContentFromCsv(csv, content, false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    expect((error as ContentErrors).errors.map(formatContentError).map((l) => l.slice(csv.length + 1))).toEqual([
      `plans.csv:3: features: "1" is a number as a spreadsheet saves one, not a text as the export writes it ('1): the spreadsheet may have changed this cell. To keep it as text, type ''1 (a spreadsheet takes the first ' as "this is text" and keeps the second)`,
      `tools.csv:2: pros: "42" is a number as a spreadsheet saves one, not a text as the export writes it ('42): the spreadsheet may have changed this cell. To keep it as text, type ''42 (a spreadsheet takes the first ' as "this is text" and keeps the second)`,
      `tools.csv:2: cons: "5" is a number as a spreadsheet saves one, not a text as the export writes it ('5): the spreadsheet may have changed this cell. To keep it as text, type ''5 (a spreadsheet takes the first ' as "this is text" and keeps the second)`,
    ]);
    expect(await hashTree(content)).toEqual(tree);
  });

  it("refuses a slug the spreadsheet changed in one line, with no error of the rows that point at it", async () => {
    const csv = join(tmp.path, "csv");
    await cp(fixture("csv/tiny"), csv, { recursive: true });
    const tools = await readFile(join(csv, "tools.csv"), "utf8");
    await writeFile(join(csv, "tools.csv"), tools.replace('"quill","Quill SEO"', '1000,"Quill SEO"'));
    const error = await importContentFromCsv(csv, join(tmp.path, "content"), false).catch((e: unknown) => e);
    expect((error as ContentErrors).errors.map((e) => `${e.file.slice(csv.length + 1)}: ${e.path}`)).toEqual([
      "tools.csv:4: slug",
    ]);
  });

  it("takes a marked cell as the text after its marker, and an unmarked ordinary one as typed", async () => {
    const csv = join(tmp.path, "csv");
    await cp(fixture("csv/tiny"), csv, { recursive: true });
    const tools = await readFile(join(csv, "tools.csv"), "utf8");
    await writeFile(join(csv, "tools.csv"), tools.replace('"fast","young"', `"'00042","=2+3 typed as text"`));
    const content = join(tmp.path, "content");
    await cp(fixture("tiny"), content, { recursive: true });
    const report = await importContentFromCsv(csv, content, true);
    expect(report.tools.fields).toEqual([
      { slug: "alpha-mail", path: "pros[0]", from: "fast", to: "00042" },
      { slug: "alpha-mail", path: "cons[0]", from: "young", to: "=2+3 typed as text" },
    ]);
  });
});

/** One CSV record's cells as written (quotes kept): commas inside quotes do not split. */
function splitRaw(raw: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (const c of raw.replace(/[\r\n]+$/, "")) {
    if (c === '"') quoted = !quoted;
    if (c === "," && !quoted) {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}
