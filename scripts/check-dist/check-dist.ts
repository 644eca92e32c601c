// Checks every file of a built dist/ that a host serves against its schema, as dist/schema-map.json says.

import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { BUILD_INDEX_FILE, BuildIndex } from "../api/runtime/build-index.ts";
import { layout, type RouteTable } from "../api/runtime/route-table.ts";
import { isSibling } from "../api/served-files.ts";
import { patternRegex, SCHEMA_MAP_FILE, type SchemaMap, type SchemaMapEntry } from "../render/schema-table.ts";
import { describeAjvErrors } from "../schemas/describe-errors.ts";
import { SCHEMA_FILE_NAMES, type SchemaFile } from "../schemas/schema-files.ts";
import { validatorFor } from "../schemas/validators.ts";
import { checkPieces } from "./check-pieces.ts";
import { checkRuns, type RunsReport } from "./check-runs.ts";
import { checkOpenApi } from "./openapi-check.ts";

export interface DistReport {
  /** files checked against a schema: the served files in JSON */
  checked: number;
  /** served files: every file the schema map names (the docs page's have no schema) */
  served: number;
  /** `v1/software/pages/all/20/40.json: /data/3/rating: must be <= 5`, paths relative to dist/ */
  problems: string[];
  notes: string[];
  /** the pieces the lists and the catalog body are made of, checked as such (check-pieces.ts) */
  pieces: number;
  /** a runs build: its lists, checked from their runs (check-runs.ts) */
  runs?: RunsReport;
}

/** `realDir`: dist/ with its symlink already resolved, so every file comes from one generation. */
export async function checkDist(realDir: string): Promise<DistReport> {
  const map = JSON.parse(await readFile(join(realDir, SCHEMA_MAP_FILE), "utf8")) as SchemaMap;
  const matchers = map.entries.map((entry) => ({ entry, regex: patternRegex(entry.pattern) }));
  const problems: string[] = [];
  const notes: string[] = [];
  const files = await fg("**", { cwd: realDir, dot: true, onlyFiles: true, followSymbolicLinks: false });
  files.sort();

  const todo: [string, SchemaMapEntry][] = [];
  let served = 0;
  for (const file of files) {
    // A precompressed sibling (build --compress) is its body's coding, not a body: `v1/sync/*` would take a shard's.
    if (isSibling(file)) continue;
    const match = matchers.find((m) => m.regex.test(file));
    if (match) served++;
    if (match?.entry.schema) todo.push([file, match.entry]);
  }
  // A file the route table always answers with must be there; a pattern with * may match none (an empty catalog).
  const present = new Set(files);
  for (const { pattern } of map.entries)
    if (!pattern.includes("*") && !present.has(pattern)) problems.push(`${pattern}: missing`);

  // Synchronous reads: for thousands of small files they cost far less CPU than fs/promises' chunked reads.
  async function checkOne([file, entry]: [string, SchemaMapEntry]): Promise<string[]> {
    const text = readFileSync(join(realDir, file), "utf8");
    if (entry.schema!.startsWith("https://")) {
      const result = await checkOpenApi(text, join(realDir, file));
      if (result.note) notes.push(result.note);
      return result.problems.map((p) => `${file}: ${p}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return [`${file}: invalid JSON: ${(e as Error).message.slice(0, 120)}`];
    }
    return checkValue(entry.schema!, value).map((p) => `${file}: ${p}`);
  }
  for (const item of todo) problems.push(...(await checkOne(item)));
  const index = readIndex(realDir, problems);
  const runs = index?.layout === "runs" ? checkRuns(realDir, index, checkValue, problems) : undefined;
  const pieces = index ? checkPieces(realDir, basePathOf(realDir), index, problems) : 0;
  return { checked: todo.length, served, problems, notes, pieces, ...(runs ? { runs } : {}) };
}

const basePathOf = (realDir: string): string =>
  (JSON.parse(readFileSync(join(realDir, layout("/").routeTable), "utf8")) as RouteTable).basePath;

/** The build's index (what a runs build's pages are cut by), or undefined with a problem when it cannot be read. */
function readIndex(realDir: string, problems: string[]): BuildIndex | undefined {
  try {
    return BuildIndex.parse(readFileSync(join(realDir, BUILD_INDEX_FILE), "utf8"), layout(basePathOf(realDir)).page);
  } catch (e) {
    problems.push(`${BUILD_INDEX_FILE}: cannot be read with routes.json (${(e as Error).message.slice(0, 120)})`);
    return undefined;
  }
}

/** `pointer: message` for each problem of `value` against a schema of the map (`schemas/responses/…`). */
function checkValue(schemaPath: string, value: unknown): string[] {
  const file = schemaPath.replace(/^schemas\//, "") as SchemaFile;
  if (!SCHEMA_FILE_NAMES.includes(file)) return [`names ${schemaPath}, which is no schema of this project`];
  const validate = validatorFor(file);
  if (validate(value)) return [];
  return describeAjvErrors(validate.errors ?? [], "output").map(({ segments, message }) =>
    segments.length === 0
      ? message
      : `/${segments.map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}: ${message}`,
  );
}
