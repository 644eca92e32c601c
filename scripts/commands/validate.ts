// npm run validate: every file of a built dist/ that a host serves, checked against its schema (dist/schema-map.json).
import { realpath, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { checkDist } from "../check-dist/check-dist.ts";
import { type CommandSpec, formatCount, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { SCHEMA_MAP_FILE } from "../render/schema-table.ts";

const options = {
  dist: {
    type: "string",
    default: "dist",
    valueName: "DIR",
    description: "the built folder to check (a symlink to a build is followed)",
  },
  json: {
    type: "boolean",
    default: false,
    description:
      "print one JSON object: { ok, dist, checked, served, pieces, runs (a runs build: lists, items, distinct, pages), problems, notes, seconds }",
  },
} as const;

export const VALIDATE: CommandSpec<typeof options> = {
  usage: "npm run validate --",
  summary:
    "Checks every file of dist/ that a host serves against its JSON Schema: response bodies, error bodies, and " +
    "openapi.json as OpenAPI 3.1; the pieces the hash tree names, as what the lists and the catalog body are made of; " +
    "for a build made with --layout runs, each list's run (its items once each, the page envelope at every limit). " +
    "Which schema checks which path is published in dist/schema-map.json. Prints every " +
    "problem at once, as `dist/<file>: <JSON pointer>: <message>`, and exits 1 when there is any.",
  options,
  notes: [
    "Run `npm run build` first. See docs/guide/validate.md for the same check with ajv-cli or Python's jsonschema.",
  ],
};

async function main(): Promise<number> {
  const values = parseCommandArgs(VALIDATE);
  const started = performance.now();
  const shown = values.dist.replace(/\/+$/, "") || "/";
  let realDir: string;
  try {
    realDir = await realpath(resolve(values.dist));
    await stat(join(realDir, SCHEMA_MAP_FILE));
  } catch {
    throw new UserError(`${shown}/${SCHEMA_MAP_FILE} not found: run npm run build first (or pass --dist DIR)`);
  }
  const report = await checkDist(realDir);
  const problems = report.problems.map((p) => `${shown}/${p}`);
  const seconds = Number(((performance.now() - started) / 1000).toFixed(2));
  if (values.json) {
    console.log(
      JSON.stringify({
        ok: problems.length === 0,
        dist: values.dist,
        checked: report.checked,
        served: report.served,
        pieces: report.pieces,
        ...(report.runs ? { runs: report.runs } : {}),
        problems,
        notes: report.notes,
        seconds,
      }),
    );
  } else {
    for (const p of problems) console.error(p);
    for (const n of report.notes) console.warn(`note: ${n}`);
    const files = new Set(report.problems.map((p) => p.slice(0, p.indexOf(":")))).size;
    const runs = report.runs
      ? ` and the ${formatCount(report.runs.pages)} list pages of its ${formatCount(report.runs.lists)} runs (${formatCount(report.runs.distinct)} distinct items)`
      : "";
    const of = `the ${formatCount(report.checked)} JSON bodies of its ${formatCount(report.served)} served files${runs}`;
    console.log(
      problems.length === 0
        ? `${shown}/: ${of} are valid, and its ${formatCount(report.pieces)} pieces are what its lists and catalog body are made of (${seconds} s)`
        : `${shown}/: ${formatCount(problems.length)} problem${problems.length === 1 ? "" : "s"} in ${formatCount(files)} of ${of} (${seconds} s)`,
    );
  }
  return problems.length === 0 ? 0 : 1;
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => process.argv.includes("--json") });
