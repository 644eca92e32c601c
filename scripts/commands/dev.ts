// npm run dev: the flags, then dev mode (scripts/dev.ts): build, serve, and rebuild on every edit of the content.
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { startDev } from "../dev.ts";

const options = {
  content: {
    type: "string",
    default: "content",
    valueName: "DIR",
    description: "the content folder to watch and build",
  },
  out: { type: "string", default: "dist", valueName: "DIR", description: "where builds are published and served from" },
  csv: {
    type: "string",
    valueName: "DIR",
    description:
      "a folder of CSV files (content:export's) to import into the content folder at start and at every save; " +
      "files of rows that are gone are kept (content:import removes them)",
  },
  layout: {
    type: "string",
    default: "pages",
    valueName: "pages|runs",
    description:
      "how each build holds the lists, as npm run build's --layout: pages (a file per page) or runs (each list once, " +
      "for large catalogs)",
  },
  verbose: {
    type: "boolean",
    default: false,
    description:
      "print every warning whole at each build (by default, those the last build printed are counted in one line)",
  },
} as const;

export const DEV: CommandSpec<typeof options> = {
  usage: "npm run dev --",
  summary:
    "Builds the content, serves it (the API and the docs page) and rebuilds on every change under the content " +
    "folder; the server answers from each new build within a second. Content errors are printed and the last " +
    "good build keeps serving until the file is fixed. With --csv, the spreadsheet's CSV files are imported at " +
    "every save first, and a bad cell is printed the same way.",
  options,
  notes: ["environment: PORT (default 3000, 0 picks a free one), HOST (default localhost)"],
};

async function main(): Promise<void> {
  const values = parseCommandArgs(DEV);
  if (values.layout !== "pages" && values.layout !== "runs")
    throw new UserError(`unknown --layout ${values.layout}: pages or runs`, 2);
  await startDev({ ...values, layout: values.layout });
}

if (isMain(import.meta.url)) void runCommand(main);
