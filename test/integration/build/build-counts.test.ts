// One vocabulary of counts (docs/hosts/layout.md#counting-a-build): a build's served files are the files export
// copies for a host but the host's own, the files validate finds in its schema map, and the served files upload:r2
// reports; an incremental build reports what changed against the build it replaced (the live one when it started),
// never what it wrote to get there, through every kind of base (a hard-link clone, a recycled older generation).
import { spawnSync } from "node:child_process";
import { cp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRouteTable } from "../../../scripts/api/load-route-table.ts";
import { servedFileFilter } from "../../../scripts/api/served-files.ts";
import { type BuildResult, build, builtLine } from "../../../scripts/build.ts";
import { checkDist } from "../../../scripts/check-dist/check-dist.ts";
import { formatCount } from "../../../scripts/cli/command.ts";
import { summaryLine } from "../../../scripts/hosts/cloudflare/r2/summary.ts";
import { uploadToR2 } from "../../../scripts/hosts/cloudflare/r2/upload.ts";
import { makeStaticCopy } from "../../../scripts/hosts/static/static-copy.ts";
import { servedFilesOf } from "../../../scripts/io/tree-report.ts";
import { fixture, repoRoot, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";
import { launchArgs } from "../../helpers/process/launch.ts";
import { memoryBucket } from "../../helpers/r2/memory-bucket.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
let content: string;
let dist: string;

beforeAll(async () => {
  dir = await tempDir("msapi-build-counts-");
});
afterAll(() => dir?.remove());

/** A copy of the tiny fixture and an output of its own, for one test (each test passes alone). */
async function project(name: string): Promise<void> {
  content = join(dir.path, name, "content");
  dist = join(dir.path, name, "dist");
  await cp(fixture("tiny"), content, { recursive: true });
}

/** The served files of the published build, path → hash of bytes. */
async function servedTree(): Promise<Map<string, string>> {
  const root = await realpath(dist);
  const isServed = servedFileFilter(await loadRouteTable(root));
  return new Map([...(await hashTree(root))].filter(([path]) => isServed(path)));
}

/** What differs between two trees, counted as a person comparing them would. */
function difference(before: Map<string, string>, after: Map<string, string>) {
  const counts = { changed: 0, added: 0, removed: 0 };
  for (const [path, hash] of after)
    if (!before.has(path)) counts.added++;
    else if (before.get(path) !== hash) counts.changed++;
  for (const path of before.keys()) if (!after.has(path)) counts.removed++;
  return counts;
}

async function editTool(slug: string, edit: (tool: Record<string, unknown>) => void) {
  const file = join(content, `tools/${slug}.json`);
  const tool = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  edit(tool);
  await writeFile(file, JSON.stringify(tool, null, 2));
}

const raisePrice = (tool: Record<string, unknown>) => {
  const plan = (tool.pricingPlans as { price: number | null }[]).find((p) => typeof p.price === "number")!;
  plan.price! += 1;
};

describe("a build counts served files and build records, as export, validate and upload:r2 do", () => {
  let full: BuildResult;

  it("a full build's served files are export's but the host's own, validate's, and upload's", async () => {
    await project("full");
    full = await build({ contentDir: content, outDir: dist });
    const served = (await servedTree()).size;
    expect(full.counts.served).toBe(served);
    expect(full.counts.changes).toBeUndefined();
    expect(builtLine(full, "dist")).toMatch(
      new RegExp(
        `^built dist/ in [\\d.]+ s \\(full, g\\d+\\): ${formatCount(served)} served files \\([\\d.]+ MB\\) and `,
      ),
    );
    expect(builtLine(full, "dist")).toMatch(/ and \d+ build records, from 4 tools and 4 categories$/);
    // Every file of the tree is one or the other: the build records are the rest (routes.json, manifest, configs).
    expect(full.counts.served + full.counts.records).toBe((await hashTree(await realpath(dist))).size);
    const exported = await makeStaticCopy(dist, join(dir.path, "full/public"), "static");
    expect(exported.served).toBe(served);
    expect(exported.files).toBe(served + exported.hostFiles.length);
    expect((await checkDist(await realpath(dist))).served).toBe(served);
    // The export command says the same, and names what it adds for the host.
    const cli = spawnSync(
      process.execPath,
      launchArgs("scripts/commands/export.ts", "--dist", dist, "--out", join(dir.path, "full/public-cli")),
      { cwd: repoRoot, encoding: "utf8" },
    );
    expect(cli.stdout).toMatch(
      new RegExp(
        `^exported ${formatCount(served)} served files \\([\\d.]+ MB\\) and 1 host file \\(404\\.html\\) for static `,
      ),
    );
    // upload:r2 names the same served files, stored as fewer objects (distinct bodies and pieces).
    const upload = await uploadToR2(dist, memoryBucket().target);
    expect(summaryLine(upload, await servedFilesOf(await realpath(dist)))).toMatch(
      new RegExp(`^R2: build \\w+ \\(${formatCount(served)} served files, stored as [\\d,]+ objects: `),
    );
  });

  it("each rebuild reports what changed against the build it replaced, whatever it had to write", async () => {
    await project("rebuilds");
    await build({ contentDir: content, outDir: dist });
    // First rebuild: a clone of the live build; then recycled older generations, which also get the changes
    // of the build before (what they write is not what changed).
    const edits: [string, () => Promise<void>][] = [
      ["a price", () => editTool("quill", raisePrice)],
      ["another price", () => editTool("alpha-mail", raisePrice)],
      ["a name", () => editTool("zeta-crm", (t) => void (t.name = "Zeta CRM Pro"))],
      ["nothing", async () => {}],
      ["a tool removed", () => rm(join(content, "tools/quill.json"))],
      ["a tool added back", () => cp(fixture("tiny/tools/quill.json"), join(content, "tools/quill.json"))],
      // After a --full build (which compares with nothing), the next rebuild reads the live build's manifest.
      ["--full", () => editTool("quill", raisePrice)],
      ["a price after --full", () => editTool("quill", raisePrice)],
    ];
    let before = await servedTree();
    const reported: string[] = [];
    for (const [what, edit] of edits) {
      await edit();
      const result = await build({ contentDir: content, outDir: dist, full: what === "--full" });
      const after = await servedTree();
      expect(result.mode, what).toBe(what === "--full" ? "full" : "incremental");
      expect(result.counts.changes, what).toEqual(what === "--full" ? undefined : difference(before, after));
      expect(result.counts.served, what).toBe(after.size);
      reported.push(builtLine(result, "dist"));
      before = after;
    }
    // quill's summary changed (a free plan no more): the pieces holding it (one of "all", one of "seo", one of the
    // catalog body) are new files, and the old ones gone
    expect(reported[0]).toMatch(/: [1-9]\d* served files changed, 3 added, 3 removed against the build it replaced; /);
    expect(reported[3]).toMatch(/: no served file changed against the build it replaced; /);
    // a tool removed: its files and its pieces gone; the new piece of the catalog body (the new "all" list is the
    // "email" list: its piece is there already)
    expect(reported[4]).toMatch(/, 1 added, [1-9][\d,]* removed against the build it replaced; /);
  });
});
