// npm run dev: build, serve, and rebuild on every edit of content/ (site.json, categories/, tools/). The server
// follows each build as it is published. A bad edit prints its content errors and the last good build keeps serving;
// fixing the file recovers, no restart.
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { build } from "./build.ts";
import {
  type CommandSpec,
  describeFsError,
  formatCount,
  isMain,
  parseCommandArgs,
  runCommand,
  UserError,
} from "./cli/command.ts";
import { onStopRequest } from "./cli/stop.ts";
import { ContentErrors, formatContentError } from "./content/errors.ts";
import { warningLines } from "./content/placeholders.ts";
import { type ContentWatcher, watchContent } from "./content/watch-content.ts";
import { listenAddressFromEnv, printUrls, startServerForUser } from "./hosts/node/process/announce.ts";
import type { RunningServer } from "./hosts/node/server/start-server.ts";

const options = {
  content: {
    type: "string",
    default: "content",
    valueName: "DIR",
    description: "the content folder to watch and build",
  },
  out: { type: "string", default: "dist", valueName: "DIR", description: "where builds are published and served from" },
} as const;

export const DEV: CommandSpec<typeof options> = {
  usage: "npm run dev --",
  summary:
    "Builds the content, serves it (the API and the docs page) and rebuilds on every change under the content " +
    "folder; the server answers from each new build within a second. Content errors are printed and the last " +
    "good build keeps serving until the file is fixed.",
  options,
  notes: ["environment: PORT (default 3000, 0 picks a free one), HOST (default localhost)"],
};

/** The placeholders last printed: an edit that leaves them as they were does not print them again. */
let shownWarnings = "";

/** One build, reported in one line (and its placeholders when they changed); false, with the errors, when it failed. */
async function buildOnce(contentDir: string, outDir: string, shownOut: string): Promise<boolean> {
  try {
    const r = await build({ contentDir, outDir });
    const what =
      r.mode === "incremental"
        ? `wrote ${formatCount(r.written)}, removed ${formatCount(r.deleted)}`
        : `${formatCount(r.files)} files`;
    console.log(`built ${shownOut}/ (${r.mode}) in ${r.seconds.toFixed(2)} s: ${what}`);
    const warnings = JSON.stringify(r.contentWarnings);
    if (warnings !== shownWarnings) for (const line of warningLines(r.contentWarnings)) console.warn(line);
    shownWarnings = warnings;
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

async function main(): Promise<void> {
  const values = parseCommandArgs(DEV);
  const contentDir = resolve(values.content);
  const outDir = resolve(values.out);
  if (!existsSync(contentDir)) throw new UserError(`no content folder at ${values.content}: pass --content DIR`);
  const address = listenAddressFromEnv();

  let server: RunningServer | undefined;
  let watcher: ContentWatcher | undefined;
  onStopRequest(async () => {
    watcher?.close();
    await server?.close();
  });
  const serve = async () => {
    server = await startServerForUser({ distDir: outDir, ...address });
    printUrls(server);
  };

  // One build at a time; edits during a build make one more build after it.
  let building: Promise<void> | undefined;
  let again = false;
  const rebuild = async (): Promise<void> => {
    if (building) {
      again = true;
      return building;
    }
    building = (async () => {
      do {
        again = false;
        if (!(await buildOnce(contentDir, outDir, values.out))) continue;
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
    console.log(`changed: ${relative(process.cwd(), join(contentDir, what)) || what}`);
    void rebuild().catch((e: Error) => console.error(`build failed: ${e.message}`));
  });
  console.log(`watching ${values.content}/ for changes`);
}

if (isMain(import.meta.url)) void runCommand(main);
