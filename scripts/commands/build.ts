// npm run build: the flags, then the build (scripts/build.ts orchestrates it), reported in one line or one JSON object.
import { resolve } from "node:path";
import { build, builtLine } from "../build.ts";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { ContentErrors, formatContentError } from "../content/errors.ts";
import { warningReport } from "../content/warning-report.ts";

const options = {
  content: { type: "string", default: "content", valueName: "DIR", description: "the content folder" },
  out: {
    type: "string",
    default: "dist",
    valueName: "DIR",
    description: "the published output (a link into DIR.builds/)",
  },
  json: { type: "boolean", default: false, description: "print the result (or the error) as one JSON object" },
  full: { type: "boolean", default: false, description: "build everything, ignoring the previous build" },
  compress: { type: "boolean", default: false, description: "also write .br and .gz beside each body" },
  strict: {
    type: "boolean",
    default: false,
    description:
      "fail on what the scaffold leaves to replace (TODO text, .example addresses, empty categories), as CI should",
  },
  "no-wait": {
    type: "boolean",
    default: false,
    description: "if another build of --out is running, stop instead of waiting for it",
  },
  layout: {
    type: "string",
    default: "pages",
    valueName: "pages|runs",
    description:
      "how the build holds the lists of GET /software: pages, a file per page (every body on disk, what file hosts take); " +
      "runs, each list once (runs/), no page file: a far smaller build for large catalogs",
  },
  "edge-only": {
    type: "boolean",
    default: false,
    description: "the same as --layout runs (its former name)",
  },
  verbose: {
    type: "boolean",
    default: false,
    description: "print every warning whole (by default, those the last build printed are counted in one line)",
  },
} as const;

export const BUILD: CommandSpec<typeof options> = {
  usage: "npm run build --",
  summary:
    "Builds every response body from the content folder and publishes it in one step: --out is a symbolic link to " +
    "one complete build in <out>.builds/, switched only when the new build is complete. Unchanged content since " +
    "the last build is not rewritten. See docs/develop/builds.md.",
  options,
  notes: [
    "Exit status: 0 built, 1 failed (content errors, refused output folder, full disk, no permission), 2 bad flags.",
  ],
};

let jsonOutput = process.argv.includes("--json");

async function main(): Promise<number> {
  const values = parseCommandArgs(BUILD);
  jsonOutput = values.json === true;
  if (values.layout !== "pages" && values.layout !== "runs")
    throw new UserError(`unknown --layout ${values.layout}: pages or runs`, 2);
  if (
    values["edge-only"] &&
    process.argv.some((a) => a === "--layout" || a.startsWith("--layout=")) &&
    values.layout !== "runs"
  )
    throw new UserError("--edge-only is --layout runs: it goes with no other --layout", 2);
  const layout = values["edge-only"] ? "runs" : values.layout;
  const contentDir = resolve(values.content!);
  const outDir = resolve(values.out!);
  const progress = values.json || !process.stderr.isTTY ? undefined : (m: string) => process.stderr.write(`\r${m}`);
  const notice = (line: string) => process.stderr.write(`${progress ? "\r\x1b[K" : ""}${line}\n`);
  try {
    const result = await build({
      contentDir,
      outDir,
      full: values.full,
      compress: values.compress,
      wait: !values["no-wait"],
      onNotice: notice,
      onProgress: progress,
      backgroundCleanup: true,
      strict: values.strict,
      printsWarnings: !values.json,
      layout,
    });
    if (progress) process.stderr.write("\r\x1b[K");
    if (values.json) console.log(JSON.stringify({ ok: true, outDir: values.out, ...result }));
    else console.log(builtLine(result, values.out!));
    if (!values.json)
      for (const line of warningReport(result.contentWarnings, result.warnings, result.warningHistory, values.verbose))
        console.warn(line);
    return 0;
  } catch (e) {
    if (progress) process.stderr.write("\r\x1b[K");
    if (!(e instanceof ContentErrors)) throw e;
    if (values.json)
      console.log(JSON.stringify({ ok: false, error: e.message, errors: e.errors.map(formatContentError) }));
    else {
      for (const error of e.errors) console.error(formatContentError(error));
      console.error(`\nbuild failed: ${e.message}; ${values.out}/ was left as it was.`);
    }
    return 1;
  }
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => jsonOutput });
