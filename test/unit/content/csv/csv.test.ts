// content:export and content:import: the catalog as CSV files and back, exactly; bad rows refused at their file, row
// and column, every one in one run, with nothing written.
import { cp, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contentToCsv } from "../../../../scripts/content/csv/content-to-csv.ts";
import { csvToContent } from "../../../../scripts/content/csv/csv-to-content.ts";
import { importContentFromCsv, reportLines } from "../../../../scripts/content/csv/import-sheets.ts";
import { contentAsSheets } from "../../../../scripts/content/csv/write-sheets.ts";
import { ContentErrors, formatContentError } from "../../../../scripts/content/errors.ts";
import { schemaRef } from "../../../../scripts/content/schema-ref.ts";
import { fixture, sampleContent, tempDir } from "../../../helpers/fs/dirs.ts";
import { hashTree } from "../../../helpers/fs/tree.ts";

const tinyCsv = fixture("csv/tiny");
const badCsv = fixture("csv/bad");
const SHEETS = ["tools.csv", "plans.csv", "categories.csv", "site.csv"] as const;

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir("msapi-csv-");
});
afterEach(() => tmp.remove());

const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
const contentFiles = async (dir: string) =>
  (await Promise.all(["tools", "categories"].map(async (d) => (await readdir(join(dir, d))).map((f) => `${d}/${f}`))))
    .flat()
    .concat("site.json")
    .sort();

/** The error lines of a failed import, with the CSV folder's path cut off (`tools.csv:3: …`). */
async function importErrors(csvDir: string, contentDir: string, dryRun = false): Promise<string[]> {
  try {
    await importContentFromCsv(csvDir, contentDir, dryRun);
  } catch (e) {
    if (!(e instanceof ContentErrors)) throw e;
    // The folder is shown relative to the working directory, or whole when it lies outside it.
    const shown = [`${relative(process.cwd(), csvDir)}/`, `${csvDir}/`];
    return e.errors.map(formatContentError).map((line) => {
      const prefix = shown.find((p) => line.startsWith(p));
      return prefix ? line.slice(prefix.length) : line;
    });
  }
  throw new Error("the import succeeded");
}

describe("content:export", () => {
  it("writes the tiny fixture as the committed CSV files, byte for byte (BOM, CRLF, a header row)", async () => {
    const { files, counts } = await contentAsSheets(fixture("tiny"));
    for (const name of SHEETS) expect(files[name], name).toBe(await readFile(join(tinyCsv, name), "utf8"));
    expect(files["tools.csv"].startsWith("\ufeffslug,name,")).toBe(true);
    expect(files["tools.csv"]).toContain('"email\ncrm"');
    expect(counts).toEqual({ tools: 4, plans: 5, categories: 4 });
  });

  it("refuses content that is not valid, with the content's errors", async () => {
    await expect(contentAsSheets(fixture("bad/bad-rating"))).rejects.toThrow(ContentErrors);
  });
});

describe("content:import", () => {
  it("into an empty folder writes every file as it was, with the $schema pointer new:tool writes", async () => {
    const out = join(tmp.path, "content");
    const report = await importContentFromCsv(tinyCsv, out, false);
    expect(report.tools.added).toEqual(["alpha-mail", "beta-mail", "quill", "zeta-crm"]);
    expect(report.categories.added).toHaveLength(4);
    expect(report.siteChanged).toBe(true);
    expect(await contentFiles(out)).toEqual(await contentFiles(fixture("tiny")));
    for (const file of await contentFiles(out)) {
      const imported = await readJson(join(out, file));
      const original = await readJson(join(fixture("tiny"), file));
      const schema = file === "site.json" ? "site" : file.startsWith("tools/") ? "tool" : "category";
      expect(imported.$schema).toBe(schemaRef(join(out, file), `content/${schema}.schema.json`));
      expect({ ...imported, $schema: undefined }, file).toEqual({ ...original, $schema: undefined });
      // The field order of the original files (new:tool's), and their text format.
      expect(Object.keys(imported).slice(1)).toEqual(Object.keys(original).filter((k) => k !== "$schema"));
      expect(await readFile(join(out, file), "utf8")).toBe(`${JSON.stringify(imported, null, 2)}\n`);
    }
  });

  it("into the folder it was exported from changes nothing and rewrites no file", async () => {
    const content = join(tmp.path, "content");
    await cp(fixture("tiny"), content, { recursive: true });
    const before = await Promise.all(
      (await contentFiles(content)).map(async (f) => (await stat(join(content, f))).mtimeMs),
    );
    const report = await importContentFromCsv(tinyCsv, content, false);
    expect(report).toEqual({
      tools: { added: [], changed: [], removed: [], fields: [] },
      categories: { added: [], changed: [], removed: [], fields: [] },
      siteChanged: false,
      siteFields: [],
    });
    const after = await Promise.all(
      (await contentFiles(content)).map(async (f) => (await stat(join(content, f))).mtimeMs),
    );
    expect(after).toEqual(before);
  });

  it("of the sample's own export leaves the sample's content folder byte-identical", async () => {
    const content = join(tmp.path, "content");
    const csv = join(tmp.path, "csv");
    await cp(sampleContent, content, { recursive: true });
    const { files } = await contentAsSheets(content);
    await mkdir(csv);
    for (const [file, text] of Object.entries(files)) await writeFile(join(csv, file), text);
    const tree = await hashTree(content);
    const report = await importContentFromCsv(csv, content, false);
    expect([report.tools, report.categories]).toEqual([
      { added: [], changed: [], removed: [], fields: [] },
      { added: [], changed: [], removed: [], fields: [] },
    ]);
    expect(await hashTree(content)).toEqual(tree);
  });

  it("reports tools added, changed and removed, and rewrites only those; --dry-run writes nothing", async () => {
    const content = join(tmp.path, "content");
    const csv = join(tmp.path, "csv");
    await cp(fixture("tiny"), content, { recursive: true });
    await cp(tinyCsv, csv, { recursive: true });
    // Rows end in CRLF; the line breaks inside a list's cell are LF.
    const rows = (await readFile(join(csv, "tools.csv"), "utf8")).split("\r\n");
    const quill = rows.find((r) => r.startsWith('"quill",'))!;
    const quillTwo = quill.replaceAll("quill", "quill-two").replace("Quill SEO", "Quill Two");
    const kept = rows.filter((r) => !r.startsWith('"zeta-crm",'));
    await writeFile(join(csv, "tools.csv"), kept.join("\r\n").replace(quill, `${quill}\r\n${quillTwo}`));
    const plans = await readFile(join(csv, "plans.csv"), "utf8");
    await writeFile(
      join(csv, "plans.csv"),
      plans.replace('"alpha-mail","Pro",19,', '"alpha-mail","Pro",21,').replace(/"zeta-crm".*\r\n/, ""),
    );
    const categories = await readFile(join(csv, "categories.csv"), "utf8");
    await writeFile(join(csv, "categories.csv"), categories.replace(/"podcasts",.*\r\n/, ""));

    const tree = await hashTree(content);
    const dry = await importContentFromCsv(csv, content, true);
    expect(dry.tools).toEqual({
      added: ["quill-two"],
      changed: ["alpha-mail"],
      removed: ["zeta-crm"],
      fields: [{ slug: "alpha-mail", path: "pricingPlans[1].price", from: 19, to: 21 }],
    });
    expect(dry.categories).toEqual({ added: [], changed: [], removed: ["podcasts"], fields: [] });
    expect(await hashTree(content)).toEqual(tree);
    // What --dry-run prints: each changed field, old → new.
    expect(reportLines(dry, { dryRun: true })).toEqual([
      "tools: 1 added, 1 changed, 1 removed",
      "  added: quill-two",
      "  changed: alpha-mail",
      "  removed: zeta-crm",
      "  alpha-mail: pricingPlans[1].price: 19 → 21",
      "categories: 0 added, 0 changed, 1 removed",
      "  removed: podcasts",
      "dry run: nothing was written (these would be the changes)",
    ]);

    const report = await importContentFromCsv(csv, content, false);
    expect(report).toEqual(dry);
    const after = await hashTree(content);
    const changedFiles = [...new Set([...tree.keys(), ...after.keys()])].filter((f) => tree.get(f) !== after.get(f));
    expect(changedFiles.sort()).toEqual(
      ["categories/podcasts.json", "tools/alpha-mail.json", "tools/quill-two.json", "tools/zeta-crm.json"].sort(),
    );
    expect(
      ((await readJson(join(content, "tools/alpha-mail.json"))).pricingPlans as { price: number }[])[1]!.price,
    ).toBe(21);
  });

  it("for the dev loop (keepRemoved) reports rows that are gone and keeps their files", async () => {
    const content = join(tmp.path, "content");
    const csv = join(tmp.path, "csv");
    await cp(fixture("tiny"), content, { recursive: true });
    await cp(tinyCsv, csv, { recursive: true });
    const tools = await readFile(join(csv, "tools.csv"), "utf8");
    await writeFile(join(csv, "tools.csv"), tools.replace(/"zeta-crm",[\s\S]*$/, ""));
    const plans = await readFile(join(csv, "plans.csv"), "utf8");
    await writeFile(join(csv, "plans.csv"), plans.replace(/"zeta-crm".*\r\n/, ""));
    const tree = await hashTree(content);
    const report = await importContentFromCsv(csv, content, false, { keepRemoved: true });
    expect(report.tools.removed).toEqual(["zeta-crm"]);
    expect(await hashTree(content)).toEqual(tree);
  });

  it("accepts what spreadsheets save: no BOM, LF, every cell quoted, TRUE/FALSE, CRLF inside cells, blank rows", async () => {
    const csv = join(tmp.path, "csv");
    await cp(tinyCsv, csv, { recursive: true });
    for (const name of SHEETS) {
      const text = (await readFile(join(csv, name), "utf8")).replace(/^\ufeff/, "");
      const resaved = csvLines(text)
        .map((cells) =>
          cells.map(
            (c) =>
              `"${c
                .replace(/"/g, '""')
                .replace(/\n/g, "\r\n")
                .replace(/^true$/, "TRUE")
                .replace(/^false$/, "False")}"`,
          ),
        )
        .map((cells) => cells.join(","))
        .join("\n");
      const blanks = `\n${",".repeat(csvLines(text)[0]!.length - 1)}\n\n`;
      await writeFile(join(csv, name), `${resaved}${blanks}`);
    }
    const fromResaved = join(tmp.path, "a");
    const fromExport = join(tmp.path, "b");
    await importContentFromCsv(csv, fromResaved, false);
    await importContentFromCsv(tinyCsv, fromExport, false);
    expect(await hashTree(fromResaved)).toEqual(await hashTree(fromExport));
  });

  it("brings back cells with commas, quotes and line breaks exactly", () => {
    const tool = {
      name: 'Acme, "the" Mail',
      slug: "acme",
      shortDescription: 'Says "hi", twice;\nthen stops.',
      websiteUrl: "https://acme.test/?a=1,2",
      logoUrl: null,
      rating: 4.5,
      freeTrialDays: 0,
      moneyBackDays: null,
      pricingPlans: [
        { name: "Pro, yearly", price: 12.5, billing: "annual", features: ['"Unlimited", really', "a; b"] },
      ],
      hasApi: true,
      hasMcpServer: false,
      hasZapier: false,
      hasMake: true,
      pros: ["fast, cheap", 'says "yes"'],
      cons: [],
      pricingLastVerified: null,
      categories: ["crm"],
      internalNotes: "line one\nline two",
    };
    const site = { siteUrl: "https://s.test", apiBaseUrl: "https://api.s.test" };
    const csv = contentToCsv({
      site: { file: "site.json", data: site },
      categories: [{ file: "c", data: { name: "CRM, etc.", slug: "crm" } }],
      tools: [{ file: "t", data: tool }],
    });
    if (!csv.ok) throw new Error(csv.errors.map(formatContentError).join("\n"));
    const encoder = new TextEncoder();
    const back = csvToContent({
      files: Object.fromEntries(Object.entries(csv.files).map(([k, v]) => [k, encoder.encode(v)])),
      shown: (f) => f,
    });
    if (!back.ok) throw new Error(back.errors.map(formatContentError).join("\n"));
    expect(back.content.tools).toEqual([tool]);
    expect(back.content.categories).toEqual([{ name: "CRM, etc.", slug: "crm" }]);
    expect(back.content.site).toEqual(site);
  });
});

describe("a bad CSV file is refused at its file, row and column, and nothing is written", () => {
  // Each file of test/fixtures/csv/bad/ replaces the sheet its name starts with, in the tiny fixture's CSV.
  const CASES: Record<string, string[]> = {
    "plans.price-with-decimal-comma.csv": [
      'plans.csv:3: price: expected a number (like 12.5) or an empty cell, got "12,50"',
    ],
    "plans.unknown-tool.csv": ['plans.csv:3: tool: no tool "alpha-mial" in tools.csv (did you mean "alpha-mail"?)'],
    "plans.unknown-billing.csv": ['plans.csv:4: billing: expected one of "monthly", "annual", "custom", got "yearly"'],
    "plans.negative-price.csv": ["plans.csv:5: price: must be >= 0, got -5"],
    "tools.yes-for-boolean.csv": ['tools.csv:3: hasApi: expected true or false, got "yes"'],
    "tools.rating-above-five.csv": ["tools.csv:3: rating: must be <= 5, got 7"],
    "tools.unknown-category.csv": ['tools.csv:4: categories: entry 1: unknown category "sep" (did you mean "seo"?)'],
    "tools.duplicate-slug.csv": [
      'plans.csv:5: tool: no tool "quill" in tools.csv',
      'tools.csv:4: slug: "alpha-mail" is also the slug of row 2: each tool has one row',
    ],
    "tools.misspelt-column.csv": [
      'tools.csv:1: "prso" is not a column (did you mean "pros"?); "pros" is missing: the header row should name the columns slug, name, shortDescription, websiteUrl, logoUrl, rating, freeTrialDays, moneyBackDays, hasApi, hasMcpServer, hasZapier, hasMake, pros, cons, pricingLastVerified, categories, internalNotes (internalNotes may be left out)',
    ],
    "tools.missing-column.csv": [
      'tools.csv:1: "hasMake" is missing: the header row should name the columns slug, name, shortDescription, websiteUrl, logoUrl, rating, freeTrialDays, moneyBackDays, hasApi, hasMcpServer, hasZapier, hasMake, pros, cons, pricingLastVerified, categories, internalNotes (internalNotes may be left out)',
    ],
    "tools.impossible-date.csv": ['tools.csv:4: pricingLastVerified: expected a valid date, got "2026-02-30"'],
    "tools.quote-never-closed.csv": [
      "tools.csv:4: shortDescription: text after a quoted cell's closing quote: quote the whole cell and double its quotes",
    ],
    "tools.unquoted-comma.csv": [
      "tools.csv:3: has 18 cells, the header row has 17: a cell with a comma must be quoted",
    ],
    "tools.slug-with-capitals.csv": [
      'plans.csv:5: tool: no tool "quill" in tools.csv (did you mean "Quill"?)',
      'tools.csv:4: slug: expected a slug (lower-case letters and digits, words joined by single "-"), got "Quill"',
    ],
    "tools.name-too-long.csv": ["tools.csv:3: name: longer than the limit of 80 characters (has 90)"],
    "tools.not-a-url.csv": ['tools.csv:4: websiteUrl: expected a valid uri, got "quill dot example"'],
    "tools.latin-1.csv": ['tools.csv:1: is not valid UTF-8: save CSV files as UTF-8 (Excel: "CSV UTF-8")'],
    "categories.top-pick-outside-category.csv": [
      'categories.csv:2: topToolPick: tool "quill" is not in category "crm"',
    ],
    "plans.unquoted-semicolon.csv": [
      "plans.csv:3: has 6 cells, the header row has 5: a cell with a semicolon must be quoted",
    ],
    "plans.tab-separated-thousands-comma.csv": [
      'plans.csv:3: price: expected a number (like 12.5) or an empty cell, got "1,250"',
    ],
    "categories.pipe-separated.csv": [
      'categories.csv:1: the header row should name the columns slug, name, topToolPick, editorialNotes (topToolPick and editorialNotes may be left out), separated by commas, semicolons or tabs; found "slug|name|topToolPick|editorialNotes"',
    ],
    "categories.semicolon-misspelt-column.csv": [
      'categories.csv:1: "nmae" is not a column (did you mean "name"?); "name" is missing: the header row should name the columns slug, name, topToolPick, editorialNotes (topToolPick and editorialNotes may be left out)',
    ],
    "tools.date-as-excel-us-writes.csv": [2, 3, 4, 5].map(
      (row) =>
        `tools.csv:${row}: pricingLastVerified: expected a date as YYYY-MM-DD, got "10/1/2026": the spreadsheet wrote it its own way, and no date of this file says whether the day or the month comes first; format the column as yyyy-mm-dd (Excel: Format Cells, Custom) and save again`,
    ),
    "tools.utf-16-without-bom.csv": [
      "tools.csv:1: is UTF-16 text without a byte-order mark: save it as CSV UTF-8 (or as Unicode text, which has one)",
    ],
    "site.two-rows.csv": ["site.csv:3: site.csv holds exactly one row under its header, found 2"],
  };

  it("has a case for every file of the corpus", async () => {
    expect(Object.keys(CASES).sort()).toEqual((await readdir(badCsv)).sort());
    expect(Object.keys(CASES).length).toBeGreaterThanOrEqual(12);
  });

  it.each(Object.entries(CASES))("%s", async (file, expected) => {
    const csv = join(tmp.path, "csv");
    const content = join(tmp.path, "content");
    await cp(tinyCsv, csv, { recursive: true });
    await cp(join(badCsv, file), join(csv, `${file.split(".")[0]}.csv`));
    await cp(fixture("tiny"), content, { recursive: true });
    const tree = await hashTree(content);
    expect(await importErrors(csv, content)).toEqual(expected);
    expect(await hashTree(content)).toEqual(tree);
    // Into an empty folder: nothing, not even the folders.
    const empty = join(tmp.path, "empty");
    expect(await importErrors(csv, empty)).toEqual(expected);
    await expect(stat(empty)).rejects.toThrow();
  });

  it("reports the errors of every file in one run", async () => {
    const csv = join(tmp.path, "csv");
    await cp(tinyCsv, csv, { recursive: true });
    for (const file of ["plans.price-with-decimal-comma.csv", "tools.rating-above-five.csv", "site.two-rows.csv"])
      await cp(join(badCsv, file), join(csv, `${file.split(".")[0]}.csv`));
    const tools = await readFile(join(csv, "tools.csv"), "utf8");
    await writeFile(join(csv, "tools.csv"), tools.replace("young,2026-10-01,seo", "young,2026-13-01,seo"));
    expect(await importErrors(csv, join(tmp.path, "content"))).toEqual([
      'plans.csv:3: price: expected a number (like 12.5) or an empty cell, got "12,50"',
      "site.csv:3: site.csv holds exactly one row under its header, found 2",
      "tools.csv:3: rating: must be <= 5, got 7",
      'tools.csv:4: pricingLastVerified: expected a valid date, got "2026-13-01"',
    ]);
  });
});

/** The tiny fixture's CSV as rows of cells, read by a rule independent of the code under test: its cells hold no quotes or commas. */
function csvLines(text: string): string[][] {
  const rows: string[][] = [];
  for (const match of text.matchAll(/((?:"[^"]*"|[^,\r\n]*)(?:,(?:"[^"]*"|[^,\r\n]*))*)\r\n/g))
    rows.push([...match[1]!.matchAll(/(?:^|,)("([^"]*)"|[^,]*)/g)].map((m) => m[2] ?? m[1]!));
  return rows;
}
