// What the README and docs/ state about the repository and the sample catalog is true of a fresh build of the sample:
// every repository path they or a source comment name exists, every build output they name is in the build, every
// count of the sample's files and bytes is the build's, every count of the n = 1,000 tree is bench/results.json's,
// every rule id cited anywhere is defined in docs/develop/rules.md, and no link leaves the repository.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import { loadRouteTable } from "../../../scripts/api/load-route-table.ts";
import { OPERATIONS } from "../../../scripts/api/operations.ts";
import { servedFileFilter } from "../../../scripts/api/served-files.ts";
import { checkDist } from "../../../scripts/check-dist/check-dist.ts";
import { publishedFiles } from "../../../scripts/hosts/cloudflare/r2/upload.ts";
import { startServer } from "../../../scripts/hosts/node/server/start-server.ts";
import { makeStaticCopy } from "../../../scripts/hosts/static/static-copy.ts";
import { builtSite } from "../../helpers/build/built-site.ts";
import { BENCH_TABLES, benchTablesIn, readBenchResults } from "../../helpers/docs/bench-tables.ts";
import {
  type FoundPath,
  pathsInComments,
  pathsInHashComments,
  pathsInMarkdown,
} from "../../helpers/docs/named-paths.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

const DOCS = ["README.md", ...fg.sync("docs/**/*.md", { cwd: repoRoot }).sort()];

/** Each doc's lines, with the doc's name and the line number. */
const lines = DOCS.flatMap((doc) =>
  readFileSync(join(repoRoot, doc), "utf8")
    .split("\n")
    .map((text, i) => ({ where: `${doc}:${i + 1}`, text })),
);

/** Each doc's lines outside fenced code blocks: prose and tables, not a command's output quoted as printed. */
const proseLines = DOCS.flatMap((doc) => {
  let fenced = false;
  return readFileSync(join(repoRoot, doc), "utf8")
    .split("\n")
    .flatMap((text, i) => {
      if (text.trimStart().startsWith("```")) fenced = !fenced;
      return fenced || text.trimStart().startsWith("```") ? [] : [{ where: `${doc}:${i + 1}`, text }];
    });
});

/** Every number of bench/results.json, the one source of measured figures, and its n = 1,000 build's tree. */
function benchNumbers(): { all: Set<number>; tree1000: number; bytes1000: number } {
  const results = JSON.parse(readFileSync(join(repoRoot, "bench/results.json"), "utf8")) as {
    build: { results: { n: number; files: number; bytes: number }[] };
  };
  const all = new Set<number>();
  const walk = (value: unknown): void => {
    if (typeof value === "number") all.add(value);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(results);
  const row = results.build.results.find((r) => r.n === 1000);
  if (row === undefined) throw new Error("bench/results.json has no n = 1,000 build");
  return { all, tree1000: row.files, bytes1000: row.bytes };
}

/** A rule id as cited (`Q8`, `B3`; not a percent-encoding such as `%E0`), and a range of them (`Q1–Q9`). */
const CITED_RULE = /(?<![%\w])([PQODHCBMSE])(\d+)(?:[–-]\1?(\d+))?\b/g;

/** Build outputs a doc names in `code` (`dist/nginx/server.conf`), without placeholders. */
const BUILD_PATH = /`(dist\/[^`\s]*)`/g;
const PLACEHOLDER = /[{}<>…*$]/;

/** Every file of the repository: tracked, or new and not ignored (work not yet committed counts). */
const repositoryFiles = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: repoRoot,
  encoding: "utf8",
})
  .stdout.split("\n")
  .filter(Boolean);
/** The folders at the repository's root: a path that starts with one names a file of the repository. */
const TOP_FOLDERS = [...new Set(repositoryFiles.filter((f) => f.includes("/")).map((f) => f.split("/")[0]!))];

/** Every path the docs name, and every path a comment names in the code, the tests, the benchmarks and the configs. */
const namedPaths = (): FoundPath[] => (named ??= findNamedPaths());
let named: FoundPath[] | undefined;
function findNamedPaths(): FoundPath[] {
  const read = (file: string) => readFileSync(join(repoRoot, file), "utf8");
  const commented = fg.sync(["{scripts,bench,test}/**/*.{ts,cjs,mjs}", "*.{ts,jsonc}"], {
    cwd: repoRoot,
    ignore: ["bench/out/**"],
  });
  const hashCommented = fg.sync([".gitignore", ".ci/*", ".github/**/*.{yml,yaml}", "*.{toml,yaml,yml}"], {
    cwd: repoRoot,
    dot: true,
  });
  return [
    ...DOCS.flatMap((doc) => pathsInMarkdown(doc, read(doc), TOP_FOLDERS)),
    ...commented.sort().flatMap((file) => pathsInComments(file, read(file), TOP_FOLDERS)),
    ...hashCommented.sort().flatMap((file) => pathsInHashComments(file, read(file), TOP_FOLDERS)),
  ];
}

/**
 * What a path may name that is no file of the repository, besides what git ignores (bench/out/, tmp/, dist.public/:
 * what commands write) and what a fresh build of the sample holds (`docs/redoc.standalone.js` lies in dist/docs/).
 */
const NOT_IN_REPOSITORY: { path: RegExp; why: string }[] = [
  {
    path: /^content\/tools\/acme(?:-[\w-]+)?\.json$/,
    why: 'the tool the docs and messages take as their example: `npm run new:tool -- --name "Acme Mail"` writes it',
  },
];

/** The paths git ignores, among these: outputs a command makes. One git for them all (one per path: hundreds). */
function ignoredOf(paths: string[]): Set<string> {
  // A folder's pattern (`bench/out/`) matches a path written without its slash only when the folder exists, so both
  // forms are asked; any answer but 0 (some ignored) or 1 (none) is an error.
  const git = spawnSync("git", ["check-ignore", "--stdin"], {
    cwd: repoRoot,
    input: paths.flatMap((path) => [path, `${path.replace(/\/$/, "")}/`]).join("\n"),
    encoding: "utf8",
  });
  if (git.status !== 0 && git.status !== 1) throw new Error(`git check-ignore: exit ${git.status}: ${git.stderr}`);
  return new Set(
    git.stdout
      .split("\n")
      .filter(Boolean)
      .map((path) => path.replace(/\/$/, "")),
  );
}

/**
 * The anchors of a Markdown file as GitHub makes them: each heading's slug (`-1`, `-2` on repeats; code blocks hold
 * none), and `<a id>`s.
 */
const anchors = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let found = anchors.get(file);
  if (found) return found;
  found = new Set();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trimStart().startsWith("```")) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6} (.*)/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, "")
        .replaceAll(" ", "-");
      const repeats = seen.get(slug) ?? 0;
      seen.set(slug, repeats + 1);
      found.add(repeats ? `${slug}-${repeats}` : slug);
    }
    for (const [, id] of line.matchAll(/<a id="([^"]+)"/g)) found.add(id!);
  }
  anchors.set(file, found);
  return found;
}

const site = builtSite({ content: "sample", prefix: "msapi-doc-facts-" });
let dist: string;
const counts = {
  built: 0,
  bytes: 0,
  published: 0,
  validated: 0,
  exported: 0,
  served: 0,
  records: 0,
  distinct: 0,
  addressed: 0,
  pages: 0,
};

beforeAll(async () => {
  dist = site.dist;
  const result = site.result;
  counts.built = result.files;
  counts.bytes = result.bytes;
  counts.served = result.counts.served;
  counts.records = result.counts.records;
  counts.published = (await publishedFiles(dist)).length;
  counts.validated = (await checkDist(dist)).checked;
  counts.exported = (await makeStaticCopy(dist, join(site.dir, "public"), "static")).files;
  // Distinct bodies (what upload:r2 stores) and bodies by address (what the hash tree lists, mirror copies).
  const root = site.root;
  const isServed = servedFileFilter(await loadRouteTable(root));
  counts.distinct = new Set([...(await hashTree(root))].filter(([path]) => isServed(path)).map(([, h]) => h)).size;
  // List pages: page files of this build, the pages a runs build of it answers from its runs.
  counts.pages = fg.sync("v1/software/pages/**/*.json", { cwd: root }).length;
  for (const shard of fg.sync("v1/sync/*.json", { cwd: root, ignore: ["v1/sync/index.json"] }))
    counts.addressed += Object.keys(JSON.parse(readFileSync(join(root, shard), "utf8")).data).length;
});

describe("README.md and docs/", () => {
  it("name, as do the comments of the code, only repository paths that exist (outputs aside)", () => {
    // A path from the root (`scripts/io/store.ts`, `.ci/run`) must exist there; the end of a path (`io/store.ts`,
    // `../develop/rules.md`, `rules.md`) must end some file's path; a configuration file (`vitest.config.ts`) must be
    // at the root. See test/helpers/docs/named-paths.ts for what counts as naming a path.
    const named = namedPaths();
    const ignored = ignoredOf(named.filter(({ kind }) => kind === "top").map(({ path }) => path.replace(/\/$/, "")));
    const exists = ({ kind, path }: FoundPath): boolean => {
      if (kind === "tail") return repositoryFiles.some((file) => file === path || file.endsWith(`/${path}`));
      if (kind === "root") return existsSync(join(repoRoot, path));
      return (
        existsSync(join(repoRoot, path)) ||
        existsSync(join(dist, path)) ||
        ignored.has(path.replace(/\/$/, "")) ||
        NOT_IN_REPOSITORY.some((exception) => exception.path.test(path))
      );
    };
    expect(
      named.filter((p) => !exists(p)).map(({ where, path }) => `${where}: ${path}`),
      "paths named that do not exist",
    ).toEqual([]);
  });

  it("name build outputs that a fresh build of the sample holds (`dist/nginx/server.conf`)", () => {
    const missing: string[] = [];
    for (const { where, text } of lines)
      for (const [, path] of text.matchAll(BUILD_PATH)) {
        const inDist = path!.replace(/[.,:;]$/, "").slice("dist/".length);
        if (!PLACEHOLDER.test(inDist) && !existsSync(join(dist, inDist))) missing.push(`${where}: ${path}`);
      }
    expect(missing).toEqual([]);
  });

  it("state the sample's counts as a fresh build of it has them (served, built, uploaded, checked, exported; MB)", () => {
    const exact = new Set(Object.values(counts).filter((n) => n > 1000));
    const wrong: string[] = [];
    for (const { where, text } of lines) {
      // A count near the sample's size is one of its counts; approximations ("about 22,000") are not written.
      // A line about the benchmark's generated catalogs is not about the sample.
      if (/generated/.test(text)) continue;
      for (const [number] of text.matchAll(/\b\d{2},\d{3}\b/g)) {
        const n = Number(number.replace(",", ""));
        if (Math.abs(n - counts.built) / counts.built < 0.1 && !exact.has(n)) wrong.push(`${where}: ${number}`);
      }
      if (/sample/.test(text))
        for (const [, mb] of text.matchAll(/\b(\d+(?:\.\d)?) MB\b/g))
          if (Number(mb) !== Math.round(counts.bytes / 1e6)) wrong.push(`${where}: ${mb} MB`);
      // The build records beside the served files (layout.md's vocabulary of counts), as the build counts them.
      for (const [, records] of text.matchAll(/served files(?: \([^)]*\))? and (\d+) build records/g))
        if (Number(records) !== counts.records) wrong.push(`${where}: ${records} build records`);
    }
    expect(wrong, JSON.stringify(counts)).toEqual([]);
  });

  it("state the size of a build output they name (`cloudflare/worker.js` … about 30 KB) as the fresh build has it", () => {
    const facts = proseLines.flatMap(({ where, text }) =>
      [...text.matchAll(/`(?:dist\/)?([\w./-]+\.\w+)`[^`]*?\babout (\d+(?:\.\d+)?) (KB|kB|MB)\b/g)]
        .filter(([, path]) => existsSync(join(dist, path!)))
        .map(([, path, number, unit]) => ({ where, path: path!, said: Number(number) * (unit === "MB" ? 1e6 : 1e3) })),
    );
    expect(facts.map((f) => f.path)).toContain("cloudflare/worker.js");
    const wrong = facts
      .map((f) => ({ ...f, size: statSync(join(dist, f.path)).size }))
      .filter(({ said, size }) => Math.abs(said - size) > size * 0.1)
      .map(({ where, path, size }) => `${where}: ${path} is ${size} bytes`);
    expect(wrong).toEqual([]);
  });

  it("state the n = 1,000 tree's counts only as bench/results.json has them (quoted bench output aside)", () => {
    const { all, tree1000, bytes1000 } = benchNumbers();
    const wrong: string[] = [];
    for (const { where, text } of proseLines)
      for (const [number] of text.matchAll(/\b\d{3},\d{3}\b/g)) {
        const n = Number(number.replace(",", ""));
        if (Math.abs(n - tree1000) / tree1000 < 0.03 && !all.has(n)) wrong.push(`${where}: ${number}`);
      }
    expect(wrong).toEqual([]);
    expect(proseLines.some(({ text }) => text.includes("benchmarks.md#the-n--1000-tree"))).toBe(true);
    // The section those links lead to states the tree as bench/results.json's build section has it, files and MB.
    const page = readFileSync(join(repoRoot, "docs/develop/benchmarks.md"), "utf8");
    const section = page.slice(page.indexOf("### The n = 1,000 tree")).split(/\n#/)[0]!.replace(/\s+/g, " ");
    const mb = (bytes1000 / 1e6).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    expect(section).toContain(`${tree1000.toLocaleString("en-US")} files, ${mb} MB`);
  });

  it("hold in each table generated from bench/results.json what that file renders to now", () => {
    const results = readBenchResults();
    const stale: string[] = [];
    const shown = new Set<string>();
    for (const doc of DOCS)
      for (const { name, line, held } of benchTablesIn(readFileSync(join(repoRoot, doc), "utf8"))) {
        shown.add(name);
        const render = BENCH_TABLES[name];
        if (!render) stale.push(`${doc}:${line}: no bench table is named ${name}`);
        else if (held !== render(results))
          stale.push(`${doc}:${line}: ${name} is not what bench/results.json renders to`);
      }
    expect(stale, "rewrite them: npx tsx test/helpers/docs/bench-tables.ts").toEqual([]);
    expect([...shown].sort()).toEqual(Object.keys(BENCH_TABLES).sort());
  });

  it("give no figure measured on one machine in the guide and host pages (the benchmarks' report holds those)", () => {
    // Seconds, requests per second and "here" depend on the machine and the hour; files, bytes and requests counted
    // do not. A host page that needs a measured figure links to docs/develop/benchmarks.md or holds a bench table.
    const MACHINE =
      /\b(?:\d+-core|this machine|the machine here|measured here|on this host)\b|\d(?:\.\d+)?k? req\/s\b/i;
    const measured = proseLines
      .filter(({ where, text }) => /^docs\/(guide|hosts)\//.test(where) && MACHINE.test(text))
      .map(({ where, text }) => `${where}: ${text.match(MACHINE)![0]}`);
    expect(measured).toEqual([]);
  });

  it("define in docs/develop/rules.md every rule id that scripts/, test/, docs/ and the README cite", async () => {
    const rules = readFileSync(join(repoRoot, "docs/develop/rules.md"), "utf8");
    const defined = new Set([...rules.matchAll(/^\| ([A-Z]\d+) \|/gm)].map(([, id]) => id));
    const files = [
      ...(await fg(["scripts/**/*.{ts,mjs}", "bench/**/*.ts", "test/**/*.{ts,mjs}"], {
        cwd: repoRoot,
        ignore: ["bench/out/**"],
      })),
      ...DOCS.filter((doc) => doc !== "docs/develop/rules.md"),
    ];
    const undefinedIds: string[] = [];
    let cited = 0;
    for (const file of files)
      for (const [i, text] of readFileSync(join(repoRoot, file), "utf8").split("\n").entries())
        for (const [, family, first, last] of text.matchAll(CITED_RULE))
          for (let n = Number(first); n <= Number(last ?? first); n++) {
            cited++;
            if (!defined.has(`${family}${n}`)) undefinedIds.push(`${file}:${i + 1}: ${family}${n}`);
          }
    expect(cited).toBeGreaterThan(500);
    expect(undefinedIds).toEqual([]);
    expect(readFileSync(join(repoRoot, "docs/develop/contributing.md"), "utf8")).toContain("(rules.md)");
  });

  it("say rules in words in the guide and host pages, never by a rule id a reader there cannot decode", () => {
    const cited: string[] = [];
    // S3 there is Amazon's storage service, which these pages name; rule S3 is said in words like every rule.
    for (const { where, text } of lines.filter(({ where }) => /^docs\/(guide|hosts)\//.test(where)))
      for (const [id] of text.matchAll(CITED_RULE)) if (id !== "S3") cited.push(`${where}: ${id}`);
    expect(cited).toEqual([]);
    expect(lines.some(({ where, text }) => where.startsWith("docs/hosts/") && /\bS3\b/.test(text))).toBe(true);
  });

  it("docs/guide/openapi.md names every operation of the description, in its order", () => {
    const text = readFileSync(join(repoRoot, "docs/guide/openapi.md"), "utf8");
    const paragraph = text.slice(text.indexOf("It documents every operation"), text.indexOf("For each operation"));
    const named = [...paragraph.matchAll(/`([a-z]+[A-Z]\w*)`/g)].map(([, id]) => id);
    expect(named).toEqual(Object.keys(OPERATIONS));
  });

  it("link only inside the repository, to files and headings that exist", () => {
    const outside: string[] = [];
    for (const { where, text } of lines) {
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const [path, anchor] = target!.split("#") as [string, string | undefined];
        const doc = where.split(":")[0]!;
        const base = doc.includes("/") ? join(repoRoot, doc, "..") : repoRoot;
        if (/^[a-z]+:/i.test(target!) || (path && !join(base, path).startsWith(repoRoot)))
          outside.push(`${where}: ${target}`);
        else if (path && !existsSync(join(base, path))) outside.push(`${where}: ${target} (no such file)`);
        else if (
          anchor &&
          (path === "" || path.endsWith(".md")) &&
          !anchorsOf(path ? join(base, path) : join(repoRoot, doc)).has(anchor)
        )
          outside.push(`${where}: ${target} (no such heading)`);
      }
      if (text.includes("../shared")) outside.push(`${where}: ../shared`);
    }
    expect(outside).toEqual([]);
  });

  it("show each curl example's answer as the API answers it for the sample", async () => {
    const server = await startServer({ distDir: dist, port: 0 });
    try {
      let checked = 0;
      for (const doc of DOCS) {
        const text = readFileSync(join(repoRoot, doc), "utf8");
        for (const [, target, shown] of text.matchAll(
          /curl -s '?http:\/\/localhost:3000(\/[^'\s]*)'?\n```\n+```json\n(.*)\n```/g,
        )) {
          const answer = await fetch(server.url + target!).then((r) => r.text());
          expect(shown, `${doc}: curl ${target}`).toBe(answer);
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(2); // README.md and docs/guide/api.md
    } finally {
      await server.close();
    }
  });

  it("llms.txt: each of its links answers 200 on the Node server (the MCP endpoint a POST of initialize)", async () => {
    const text = readFileSync(join(dist, "llms.txt"), "utf8");
    const site = JSON.parse(readFileSync(join(repoRoot, "content/site.json"), "utf8")) as { apiBaseUrl: string };
    const origin = site.apiBaseUrl.replace(/\/+$/, "");
    const table = await loadRouteTable(realpathSync(dist));
    // The convention's shape: an H1 title, a blockquote summary (with the base URL), then sections of links.
    expect(text).toMatch(/^# [^\n]+\n\n> [^\n]+\n/);
    expect(text).toContain(`Base URL: ${origin}${table.basePath}\n`);
    expect(text.match(/^## .+$/gm)).toEqual(["## Endpoints", "## Description", "## MCP", "## Hosts"]);
    const links = [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map(([, url]) => url!);
    // Every URL is one of its links but the base URL, and every listed operation has its example.
    const bare = [...text.matchAll(/https?:\/\/[^)\s`]+/g)].map(([url]) => url).filter((url) => !links.includes(url));
    expect(bare).toEqual([`${origin}${table.basePath}`]);
    const listed = Object.values(OPERATIONS).filter((op) => !("listed" in op));
    for (const op of listed) expect(text, op.path).toContain(`\`GET ${table.basePath}${op.path}\``);
    expect(links.length).toBeGreaterThanOrEqual(listed.length + 3);
    const server = await startServer({ distDir: dist, port: 0 });
    try {
      const served = await fetch(`${server.url}/llms.txt`);
      expect(served.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await served.text()).toBe(text);
      const initialize = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "doc-facts", version: "1" } },
      });
      const failed: string[] = [];
      for (const link of links) {
        expect(link.startsWith(`${origin}/`), link).toBe(true);
        const path = link.slice(origin.length);
        const answer =
          path === "/mcp"
            ? await fetch(server.url + path, {
                method: "POST",
                headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
                body: initialize,
              })
            : await fetch(server.url + path);
        await answer.arrayBuffer();
        if (answer.status !== 200) failed.push(`${link}: ${answer.status}`);
      }
      expect(failed).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("docs/guide/mcp.md: the lines a person sends by hand, sent as written to npm run --silent mcp, get the answers shown", () => {
    const text = readFileSync(join(repoRoot, "docs/guide/mcp.md"), "utf8");
    const section = text.slice(text.indexOf("## Trying it by hand"));
    const [sent, shown] = [...section.matchAll(/```jsonl?\n([\s\S]*?)```/g)].map(([, block]) => block!);
    expect(sent).toMatch(/^\{"jsonrpc":"2\.0","id":1,"method":"initialize",/);
    const run = spawnSync("npm", ["run", "--silent", "mcp", "--", "--dist", dist], {
      cwd: repoRoot,
      input: sent,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    // One answer a request, each on its line with its request's id; answers may come in any order.
    const byId = (lines: string) =>
      Object.fromEntries(
        lines
          .split("\n")
          .filter(Boolean)
          .map((line) => [(JSON.parse(line) as { id: number }).id, line]),
      );
    expect(byId(run.stdout)).toEqual(byId(shown!));
    expect(Object.keys(byId(shown!))).toEqual(["1", "2", "3", "4", "5"]);
  });

  it("finds what it checks (the extraction works)", async () => {
    expect(lines.length).toBeGreaterThan(500);
    expect(lines.some(({ text }) => [...text.matchAll(BUILD_PATH)].length > 0)).toBe(true);
    const named = namedPaths();
    expect(named.length).toBeGreaterThan(500);
    expect(new Set(named.map(({ kind }) => kind))).toEqual(new Set(["top", "tail", "root"]));
    // A comment of the code, a Markdown link's end and a # comment of the configs are read.
    expect(named).toContainEqual(expect.objectContaining({ where: "test/integration/docs/doc-facts.test.ts:1" }));
    expect(named.some(({ where, path }) => where.startsWith("docs/") && path.startsWith("develop/"))).toBe(true);
    expect(named.some(({ where }) => where.startsWith(".gitignore:"))).toBe(true);
    expect(DOCS).toContain("docs/guide/api.md");
  });
});
