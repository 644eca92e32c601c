// The dev loop's import (`npm run dev -- --csv DIR`): the CSV folder imported into the content folder at each save.
// It never deletes a content file: a sheet saved half-way, or a row cut to paste it back, must not cost a file; rows
// that are gone are reported and left to `content:import`. A bad cell is printed and nothing is written.
import { describeFsError, UserError } from "../../cli/command.ts";
import { ContentErrors, formatContentError } from "../errors.ts";
import { importContentFromCsv, reportLines } from "./import-sheets.ts";

/** Imports once and prints what it did; whether the content folder now holds the CSV files' rows. */
export async function importForDev(csvDir: string, contentDir: string, shownCsv: string): Promise<boolean> {
  try {
    const report = await importContentFromCsv(csvDir, contentDir, false, { keepRemoved: true });
    const { tools, categories } = report;
    const changes = [tools, categories].some((c) => c.added.length + c.changed.length + c.removed.length > 0);
    if (!changes && !report.siteChanged) console.log(`imported ${shownCsv}/: no change`);
    else {
      console.log(`imported ${shownCsv}/:`);
      for (const line of reportLines(report, { keptRemoved: true })) console.log(`  ${line}`);
    }
    return true;
  } catch (e) {
    if (e instanceof ContentErrors) {
      for (const error of e.errors) console.error(formatContentError(error));
      console.error(
        `import failed: ${e.message}; nothing was written, the last good build keeps serving. Fix the sheet and save: it imports again.`,
      );
      return false;
    }
    const line = e instanceof UserError ? e.message : describeFsError(e);
    if (line === undefined) throw e;
    console.error(`import failed: ${line}`);
    return false;
  }
}
