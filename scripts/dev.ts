// Dev mode (`npm run dev`, scripts/commands/dev.ts): build, serve, and rebuild on every edit of content/
// (site.json, categories/, tools/). The server follows each build as it is published. A bad edit prints its content
// errors and the last good build keeps serving; fixing the file recovers, no restart. With --csv DIR, each save of
// the CSV folder is imported into the content folder first (never deleting a file: scripts/content/csv/dev-import.ts),
// and a bad cell keeps the last good build.
import { existsSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { BuildLayout } from "./api/runtime/build-index.ts";
import { build, builtLine } from "./build.ts";
import { describeFsError, UserError } from "./cli/command.ts";
import { onStopRequest } from "./cli/stop.ts";
import { importForDev } from "./content/csv/dev-import.ts";
import { SHEETS } from "./content/csv/sheets.ts";
import { ContentErrors, formatContentError } from "./content/errors.ts";
import { warningReport } from "./content/warning-report.ts";
import { type ContentWatcher, contentSignature, watchContent, watchFiles } from "./content/watch-content.ts";
import { listenAddressFromEnv, printUrls, startServerForUser } from "./hosts/node/process/announce.ts";
import type { RunningServer } from "./hosts/node/server/start-server.ts";

/**
 * One build, reported in one line (and its warnings: scripts/content/warning-report.ts); false, with the errors, when
 * it failed.
 */
async function buildOnce(
  contentDir: string,
  outDir: string,
  shownOut: string,
  verbose: boolean,
  layout: BuildLayout,
): Promise<boolean> {
  try {
    const r = await build({ contentDir, outDir, layout });
    console.log(builtLine(r, shownOut));
    for (const line of warningReport(r.contentWarnings, r.warnings, r.warningHistory, verbose)) console.warn(line);
    return true;
  } catch (e) {
    if (e instanceof ContentErrors) {
      for (const error of e.errors) console.error(formatContentError(error));
      console.error(
        `build failed: ${e.message}; still serving the last good build. Fix the file and save: it rebuilds.`,
      );
      return false;
    }
    const line = e instanceof UserError ? e.message : describeFsError(e);
    if (line === undefined) throw e;
    console.error(`build failed: ${line}`);
    return false;
  }
}

/** The flags of npm run dev, as given (messages name the folders as the user wrote them). */
export interface DevOptions {
  content: string;
  out: string;
  csv?: string;
  verbose: boolean;
  /** how each build holds the lists (npm run build's --layout); pages when absent */
  layout?: BuildLayout;
}

/** Builds, serves and rebuilds on every change until stopped (a stop request closes the watchers and the server). */
export async function startDev(values: DevOptions): Promise<void> {
  const contentDir = resolve(values.content);
  const outDir = resolve(values.out);
  const csvDir = values.csv === undefined ? undefined : resolve(values.csv);
  if (csvDir && !statSync(csvDir, { throwIfNoEntry: false })?.isDirectory())
    throw new UserError(`--csv ${values.csv} is not a folder: give the folder content:export wrote the CSV files into`);
  // The CSV files first: the first build is of what they say (and content:import makes the folder when missing).
  if (csvDir) await importForDev(csvDir, contentDir, relative(process.cwd(), csvDir) || ".");
  if (!existsSync(contentDir)) throw new UserError(`no content folder at ${values.content}: pass --content DIR`);
  const address = listenAddressFromEnv();

  let server: RunningServer | undefined;
  let watcher: ContentWatcher | undefined;
  let csvWatcher: ContentWatcher | undefined;
  onStopRequest(async () => {
    watcher?.close();
    csvWatcher?.close();
    await server?.close();
  });
  const serve = async () => {
    server = await startServerForUser({ distDir: outDir, ...address });
    printUrls(server);
  };

  // One build at a time; edits during a build make one more build after it. A saved CSV file is imported in the same
  // turn, so no build reads a content folder the import is half-way through writing.
  let building: Promise<void> | undefined;
  let again = false;
  let csvSaved = false;
  /** the content file an edit was last seen in, printed when it is built */
  let edited: string | undefined;
  /** The content of the last good build: a change that leaves the content as it was (an import's own writes, an
   * edit undone, a save without changes) builds nothing. */
  let built: string | undefined;
  const rebuild = async (): Promise<void> => {
    if (building) {
      again = true;
      return building;
    }
    building = (async () => {
      do {
        again = false;
        if (csvSaved && csvDir) {
          csvSaved = false;
          await importForDev(csvDir, contentDir, relative(process.cwd(), csvDir) || ".");
        }
        const signature = await contentSignature(contentDir);
        const change = edited;
        edited = undefined;
        if (signature === built) continue;
        if (change) console.log(`changed: ${change}`);
        if (!(await buildOnce(contentDir, outDir, values.out, values.verbose, values.layout ?? "pages"))) continue;
        built = signature;
        if (server)
          await server.reload(true); // at once, and also when dist/ is a plain folder rebuilt in place
        else await serve();
      } while (again);
    })().finally(() => (building = undefined));
    return building;
  };

  await rebuild();
  if (!server) {
    if (!existsSync(join(outDir, "routes.json")))
      console.error("nothing to serve yet: fix the content and save, the server starts with the first good build");
    else await serve(); // the last good build from before
  }
  watcher = watchContent(contentDir, (what) => {
    edited = relative(process.cwd(), join(contentDir, what)) || what;
    void rebuild().catch((e: Error) => console.error(`build failed: ${e.message}`));
  });
  if (csvDir)
    csvWatcher = watchFiles(
      csvDir,
      SHEETS.map((s) => s.file),
      (file) => {
        console.log(`saved: ${relative(process.cwd(), join(csvDir, file)) || file}`);
        csvSaved = true;
        void rebuild().catch((e: Error) => console.error(`build failed: ${e.message}`));
      },
    );
  console.log(`watching ${[values.csv, values.content].filter(Boolean).join("/ and ")}/ for changes`);
}
