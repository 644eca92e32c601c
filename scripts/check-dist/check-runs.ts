// What `npm run validate` checks of a runs build's lists, which have no page files to check one by one: each run as
// the build's index names it (its size, its offsets file, an item where each length says, a comma between items),
// each distinct item once against the summary schema, and the page envelope around them at every limit (at the
// list's first and last offsets, as the build checks it), so that every page a host cuts from the run is a page the
// schema accepts. Problems name the run and the item as a pointer into it (`runs/all.run: /3/rating: …`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BuildIndex, ListIndex } from "../api/runtime/build-index.ts";
import { PAGE_PREFIX } from "../api/runtime/page-envelope.ts";
import { ALL_FILTER, MAX_LIMIT } from "../api/runtime/route-table.ts";
import { offsetsFile, runFile } from "../render/list-runs.ts";
import type { SchemaFile } from "../schemas/schema-files.ts";

export interface RunsReport {
  /** lists checked (one run each) */
  lists: number;
  /** their items, and how many distinct ones were checked against the schema */
  items: number;
  distinct: number;
  /** the list pages hosts answer from these runs */
  pages: number;
}

/** `pointer: message` for each problem of `value` against a schema file (check-dist.ts's reading of ajv). */
export type CheckValue = (schema: SchemaFile, value: unknown) => string[];

const SUMMARY: SchemaFile = "items/software-summary.schema.json";
const PAGE: SchemaFile = "responses/software-list-response.schema.json";

/** Checks every list of a runs build; problems are pushed, paths relative to the build. */
export function checkRuns(realDir: string, index: BuildIndex, check: CheckValue, problems: string[]): RunsReport {
  const report: RunsReport = { lists: 0, items: 0, distinct: 0, pages: 0 };
  const seen = new Set<string>();
  for (const list of index.allLists()) {
    report.lists++;
    report.items += list.total;
    report.pages += MAX_LIMIT * (list.total + 1);
    const file = runFile(list.filter);
    let run: Buffer;
    try {
      run = readFileSync(join(realDir, file));
    } catch (e) {
      problems.push(`${file}: missing or unreadable (${(e as NodeJS.ErrnoException).code}): the index names it`);
      continue;
    }
    if (run.byteLength !== list.runLength) {
      problems.push(`${file}: ${run.byteLength} bytes where the build's index says ${list.runLength}`);
      continue;
    }
    const category = list.filter === ALL_FILTER ? null : list.filter.slice(list.filter.indexOf("/") + 1);
    if (list.category !== category)
      problems.push(`${file}: the index gives its list the category ${JSON.stringify(list.category)}`);
    problems.push(...checkOffsets(realDir, list));
    const pageProblems = checkItems(file, run, list, check, seen, report);
    problems.push(...pageProblems);
    if (pageProblems.length === 0) problems.push(...checkEnvelopes(file, run, list, check));
  }
  return report;
}

/** The offsets file: where each item starts, as the index's lengths say. */
function checkOffsets(realDir: string, list: ListIndex): string[] {
  const file = offsetsFile(list.filter);
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(realDir, file));
  } catch (e) {
    return [`${file}: missing or unreadable (${(e as NodeJS.ErrnoException).code}): nginx reads it`];
  }
  if (bytes.byteLength !== 4 * (list.total + 1))
    return [`${file}: ${bytes.byteLength} bytes where ${list.total} items need ${4 * (list.total + 1)}`];
  for (let i = 0; i <= list.total; i++) {
    const want = i < list.total ? list.slice(1, i).start : list.runLength + 1;
    const got = bytes.readUInt32LE(4 * i);
    // An empty list's one entry is both item 0's start (0) and the run's length plus one (1): either reads as empty.
    if (got !== want && !(list.total === 0 && got === 0))
      return [`${file}: entry ${i} is ${got} where the index says ${want}`];
  }
  return [];
}

/** Each item where its length says, a comma after each but the last, each distinct one against the schema once. */
function checkItems(
  file: string,
  run: Buffer,
  list: ListIndex,
  check: CheckValue,
  seen: Set<string>,
  report: RunsReport,
): string[] {
  const problems: string[] = [];
  for (let i = 0; i < list.total; i++) {
    const { start, length } = list.slice(1, i);
    const end = start + length;
    if (i < list.total - 1 && run[end] !== 0x2c) {
      problems.push(`${file}: /${i}: not followed by a comma where the index says it ends (byte ${end})`);
      break;
    }
    const text = run.toString("utf8", start, end);
    if (seen.has(text)) continue;
    seen.add(text);
    report.distinct++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      problems.push(`${file}: /${i}: invalid JSON: ${(e as Error).message.slice(0, 120)}`);
      continue;
    }
    for (const p of check(SUMMARY, value)) problems.push(`${file}: /${i}${p.startsWith("/") ? "" : ": "}${p}`);
  }
  return problems;
}

/**
 * The envelope at every limit, at the first offset and at the total (an empty page), as a host writes it around the
 * run's slice; the first page at the largest limit is parsed whole, its items included.
 */
function checkEnvelopes(file: string, run: Buffer, list: ListIndex, check: CheckValue): string[] {
  const problems: string[] = [];
  for (let limit = 1; limit <= MAX_LIMIT; limit++) {
    for (const offset of new Set([0, list.total])) {
      const whole = limit === MAX_LIMIT && offset === 0;
      const { start, length } = whole ? list.slice(limit, offset) : { start: 0, length: 0 };
      const page = `${PAGE_PREFIX}${run.toString("utf8", start, start + length)}${list.suffix(limit, offset)}`;
      let value: unknown;
      try {
        value = JSON.parse(page);
      } catch (e) {
        problems.push(`${file}: the page at limit ${limit}, offset ${offset}: invalid JSON: ${(e as Error).message}`);
        continue;
      }
      for (const p of check(PAGE, value)) problems.push(`${file}: the page at limit ${limit}, offset ${offset}: ${p}`);
    }
  }
  return problems;
}
