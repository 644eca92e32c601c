// The tables of measured figures the docs hold, rendered from bench/results.json: a doc holds one between
// `<!-- bench-table NAME … -->` and `<!-- /bench-table -->`, and doc-facts.test.ts fails while it differs from what
// this renders. After a bench run records new results, rewrite them all:
//   npx tsx test/helpers/docs/bench-tables.ts
// Only figures the code decides are shown (files, bytes, requests, what they cost at published prices); seconds and
// requests per second depend on the machine and stay in the bench's own report.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fg from "fast-glob";
import { repoRoot } from "../fs/dirs.ts";

interface Upload {
  writes: number;
  sentBytes: number;
}
interface EdgeRun {
  n: number;
  buildFiles: number;
  diskBytes: number;
  upload: Upload;
}
interface SyncSize {
  n: number;
  treeFiles: number;
  treeBytes: number;
  searchFiles: number;
  searchBytes: number;
  exportBytes: number;
  syncFiles: number;
  syncBytes: number;
}
/** The parts of bench/results.json the docs show. */
export interface BenchResults {
  r2: {
    results: {
      n: number;
      change: string;
      first: Upload;
      edit: Upload;
      insert: Upload;
      afterPrune: { live: number };
      edge: EdgeRun[];
    };
  };
  sync: {
    results: {
      sizes: SyncSize[];
      mirror: {
        n: number;
        change: string;
        requests: number;
        indexBytes: number;
        shardsFetched: number;
        bodiesFetched: number;
        bodyBytes: number;
      };
    };
  };
}

/** Cloudflare R2's published prices (Standard storage): per write request (Class A), per GB stored a month. */
const R2_PRICE = { write: 4.5 / 1e6, gbMonth: 0.015 };

const count = (n: number) => n.toLocaleString("en-US");
const dollars = (amount: number) => `$${Number(amount.toPrecision(1))}`;
const share = (part: number, whole: number) => {
  const percent = (part / whole) * 100;
  return `${percent >= 1 ? percent.toFixed(1) : Number(percent.toPrecision(1))} %`;
};
/** Bytes in decimal units, as the build counts them: 88.0 kB, 14.4 MB, 4.32 GB. */
export function bytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e3).toFixed(1)} kB`;
}

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), `|${head.map(() => "---").join("|")}|`, ...rows.map(line)].join("\n");
}

/** Each table by name, from the results. */
export const BENCH_TABLES: Record<string, (results: BenchResults) => string> = {
  /** What publishing to R2 sends: the r2 step's uploads at its size, and the first upload of each larger edge run. */
  "r2-uploads": ({ r2 }) => {
    const { n, change, first, edit, insert, edge } = r2.results;
    const row = (what: string, upload: Upload) => [
      what,
      count(upload.writes),
      bytes(upload.sentBytes),
      dollars(upload.writes * R2_PRICE.write),
    ];
    return table(
      ["upload", "write requests", "bytes sent", "what the writes cost"],
      [
        row(`n = ${count(n)}: the first`, first),
        row(`n = ${count(n)}: after a one-price edit (${change})`, edit),
        row(`n = ${count(n)}: after one inserted tool`, insert),
        ...edge.filter((run) => run.n > n).map((run) => row(`n = ${count(run.n)}: the first`, run.upload)),
      ],
    );
  },
  /** What a runs build (the edge-only build) takes on the disk and in the bucket, by size. */
  "r2-sizes": ({ r2 }) =>
    table(
      ["tools", "runs build: files, on disk", "stored in R2 (≈ the first upload's bytes)", "storage, a month"],
      r2.results.edge.map((run) => [
        count(run.n),
        `${count(run.buildFiles)}, ${bytes(run.diskBytes)}`,
        bytes(run.upload.sentBytes),
        dollars((run.upload.sentBytes / 1e9) * R2_PRICE.gbMonth),
      ]),
    ),
  /** Search, the export and the hash tree against the whole tree, by size. */
  "sync-sizes": ({ sync }) =>
    table(
      ["n (tools)", "tree files", "search files", "search bytes", "export", "hash tree"],
      sync.results.sizes.map((size) => [
        size.n === 80 ? "80 (generated)" : count(size.n),
        count(size.treeFiles),
        `${count(size.searchFiles)} (${share(size.searchFiles, size.treeFiles)})`,
        `${bytes(size.searchBytes)} (${share(size.searchBytes, size.treeBytes)})`,
        bytes(size.exportBytes),
        `${count(size.syncFiles)} files, ${bytes(size.syncBytes)}`,
      ]),
    ),
  /** What `npm run mirror` fetches after one price changed. */
  "sync-mirror": ({ sync }) => {
    const m = sync.results.mirror;
    return table(
      ["one price changed", "requests", "index fetched (root and shards)", "shards", "bodies", "body bytes"],
      [
        [
          `n = ${count(m.n)}: ${m.change}`,
          count(m.requests),
          bytes(m.indexBytes),
          count(m.shardsFetched),
          count(m.bodiesFetched),
          bytes(m.bodyBytes),
        ],
      ],
    );
  },
};

export function readBenchResults(): BenchResults {
  return JSON.parse(readFileSync(join(repoRoot, "bench/results.json"), "utf8")) as BenchResults;
}

/** A generated table in a doc: its marker line, its name, and what the doc holds between the markers. */
const REGION = /(<!-- bench-table ([\w-]+)\b[^\n]*-->\n)([\s\S]*?)(<!-- \/bench-table -->)/g;

export interface BenchTableInDoc {
  name: string;
  /** The line of the opening marker, from 1. */
  line: number;
  held: string;
}

export function benchTablesIn(markdown: string): BenchTableInDoc[] {
  return [...markdown.matchAll(REGION)].map((m) => ({
    name: m[2]!,
    line: markdown.slice(0, m.index).split("\n").length,
    held: m[3]!.replace(/\n$/, ""),
  }));
}

/** The doc with each generated table rendered anew from the results. */
export function withBenchTables(markdown: string, results: BenchResults): string {
  return markdown.replace(REGION, (_, open: string, name: string, _held: string, close: string) => {
    const render = BENCH_TABLES[name];
    if (!render) throw new Error(`no bench table named ${name}`);
    return `${open}${render(results)}\n${close}`;
  });
}

export const DOCS_WITH_TABLES = () => ["README.md", ...fg.sync("docs/**/*.md", { cwd: repoRoot }).sort()];

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const results = readBenchResults();
  for (const doc of DOCS_WITH_TABLES()) {
    const path = join(repoRoot, doc);
    const before = readFileSync(path, "utf8");
    const after = withBenchTables(before, results);
    if (after !== before) {
      writeFileSync(path, after);
      console.log(`${doc}: bench tables rewritten from bench/results.json`);
    }
  }
}
