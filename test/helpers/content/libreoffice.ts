// LibreOffice Calc, headless, as a person using it would open a CSV file and save it again: `soffice --convert-to` with
// the CSV filter's options written out token by token. Each run has its own profile folder (a profile in use by
// another soffice is not shared) and its own process group, ended afterwards whatever happened. What a run does to a
// file, per locale and setting, was measured with LibreOffice 7.4 (docs/guide/content.md, "Which spreadsheets").
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The locales the tests open files in: Calc's language ids (the filter's token 6) and the environment's locale. */
export const LOCALES = {
  "en-US": { language: 1033, env: "en_US.UTF-8" },
  "de-DE": { language: 1031, env: "de_DE.UTF-8" },
} as const;
export type Locale = keyof typeof LOCALES;

/** How Calc reads the file: the import options a person picks in its "Text Import" dialog. */
export interface CalcSetting {
  name: string;
  /** the field separators ticked, as character codes (44 `,`, 59 `;`, 9 tab) */
  separators: readonly number[];
  /** "Format quoted field as text" */
  quotedFieldAsText: boolean;
  /** "Detect special numbers" (dates, times, percentages, currency, flags) */
  detectSpecialNumbers: boolean;
  /** "Evaluate formulas" (a cell beginning with `=`) */
  evaluateFormulas: boolean;
}

/** The 7.4 dialog as it first opens (registry Office.Calc/Dialogs/CSVImport): comma, semicolon and tab, nothing else. */
export const DIALOG_DEFAULTS: CalcSetting = {
  name: "the dialog's defaults",
  separators: [44, 59, 9],
  quotedFieldAsText: false,
  detectSpecialNumbers: false,
  evaluateFormulas: false,
};

/** Both detections on: what changes the most. (A token left out of the command line means the same.) */
export const DETECT_ALL: CalcSetting = {
  name: "special numbers and formulas on",
  separators: [44],
  quotedFieldAsText: false,
  detectSpecialNumbers: true,
  evaluateFormulas: true,
};

const FILTER = "Text - txt - csv (StarCalc)";
const QUOTE = 34; // the text delimiter, `"`
const UTF8 = 76; // LibreOffice's charset id of UTF-8

/**
 * The import's option string (`--infilter`), 1-based tokens of LibreOffice 7.4's ScAsciiOptions::ReadFromString:
 * 1 separators, 2 text delimiter, 3 charset, 4 first line, 5 column formats (none: every column "Standard"),
 * 6 language, 7 quoted field as text, 8 detect special numbers, 9 and 10 export-only, 11 trim spaces, 12 sheet
 * (export-only), 13 evaluate formulas. Tokens 8 and 13 are written out: left out, the command line turns them on.
 */
export function importOptions(locale: Locale, setting: CalcSetting): string {
  return [
    setting.separators.join("/"),
    QUOTE,
    UTF8,
    1,
    "",
    LOCALES[locale].language,
    setting.quotedFieldAsText,
    setting.detectSpecialNumbers,
    true,
    false,
    false, // trim spaces: off, as the dialog has it
    0,
    setting.evaluateFormulas,
  ].join(",");
}

/**
 * The CSV export's option string (`--convert-to csv:…`): 1 separator `,`, 2 `"`, 3 UTF-8, 4 and 5 unused, 6 language
 * (unused on export), 7 quote all text cells (off, as Calc saves by default), 8 save numbers as such, 9 save cell
 * contents as shown, 10 save formulas (off: a formula is saved as its result), 11 unused. The locale a number,
 * date or flag is written in is not among them: it is Calc's own, from the environment (LANG).
 */
export const EXPORT_OPTIONS = [44, QUOTE, UTF8, 1, "", 0, false, true, true, false, false].join(",");

/** The soffice binary: SOFFICE_BIN, else `soffice` on the PATH; undefined when there is none. */
export function findSoffice(): string | undefined {
  const candidates = process.env.SOFFICE_BIN
    ? [process.env.SOFFICE_BIN]
    : (process.env.PATH ?? "").split(delimiter).map((dir) => join(dir, "soffice"));
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export interface OpenAndSave {
  /** the CSV files, opened and saved in one run (one run takes about as long for four files as for one) */
  files: readonly string[];
  /** where the saved files go, under the same names: a new or empty folder, not the folder of an input */
  outDir: string;
  locale: Locale;
  setting: CalcSetting;
  timeoutMs?: number;
}

/**
 * Opens each file in Calc with the setting's import options and saves it again as CSV into `outDir`. Resolves to the
 * saved files' paths once every one exists and was written by this run; rejects on a timeout, a failed run or a file
 * not saved (soffice exits 0 when it could not store one, e.g. into the input's own folder).
 */
export async function openAndSave({
  files,
  outDir,
  locale,
  setting,
  timeoutMs = 60_000,
}: OpenAndSave): Promise<string[]> {
  const soffice = findSoffice();
  if (!soffice) throw new Error("LibreOffice is not installed (apt-get install libreoffice-calc-nogui)");
  const out = resolve(outDir);
  if (files.some((file) => resolve(dirname(file)) === out))
    throw new Error(`${outDir}: soffice cannot save into the folder of the file it opened`);
  await mkdir(out, { recursive: true });
  if ((await readdir(out)).length > 0) throw new Error(`${outDir} is not empty: a saved file could not be told new`);

  const profile = await mkdtemp(join(tmpdir(), "msapi-lo-profile-"));
  const args = [
    "--headless",
    "--norestore",
    `-env:UserInstallation=${pathToFileURL(profile).href}`,
    `--infilter=${FILTER}:${importOptions(locale, setting)}`,
    "--convert-to",
    `csv:${FILTER}:${EXPORT_OPTIONS}`,
    "--outdir",
    out,
    ...files.map((file) => resolve(file)),
  ];
  // The language token decides how text is read; how numbers, dates and flags are written back is the office
  // locale's, which a fresh profile takes from the environment.
  const { env: localeEnv } = LOCALES[locale];
  const env = { ...process.env, LANG: localeEnv, LC_ALL: localeEnv, LANGUAGE: "" };
  const started = Date.now();
  const child = spawn(soffice, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], env });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    const code = await new Promise<number | null>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`soffice did not finish within ${timeoutMs} ms (${locale}, ${setting.name})`)),
        timeoutMs,
      );
      child.on("error", (e) => {
        clearTimeout(timer);
        fail(e);
      });
      child.on("exit", (exitCode) => {
        clearTimeout(timer);
        done(exitCode);
      });
    });
    if (code !== 0) throw new Error(`soffice exited with ${code} (${locale}, ${setting.name}):\n${output}`);
  } finally {
    // soffice starts oosplash and soffice.bin: end the whole group, whatever became of the run.
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // ESRCH: every process of the group has ended already
    }
    await rm(profile, { recursive: true, force: true });
  }
  const saved = files.map((file) => join(out, basename(file)));
  for (const file of saved) {
    const info = await stat(file).catch(() => undefined);
    // The file-system clock may lag the process clock by a tick: a second's margin.
    if (!info || info.mtimeMs < started - 1000)
      throw new Error(`soffice did not save ${file} (${locale}, ${setting.name}):\n${output}`);
  }
  return saved;
}
