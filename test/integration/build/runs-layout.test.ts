// `npm run build -- --layout runs` (alias `--edge-only`): every body but the list pages, each list once (its run and
// offsets files, as a pages build writes them too); the hash tree as a pages build writes it (E2); the same build for
// the R2 upload as the pages tree; for now refused with one line by what serves or checks the tree itself, and never
// switched to by a running server (B5).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { uploadToR2 } from "../../../scripts/hosts/cloudflare/r2/upload.ts";
import { type RunningServer, startServer } from "../../../scripts/hosts/node/server/start-server.ts";
import { filesButPages, indexButLayout, pagesAgainstRuns } from "../../helpers/build/layouts.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";
import { launchArgs } from "../../helpers/process/launch.ts";
import { memoryBucket } from "../../helpers/r2/memory-bucket.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
let content: string;
beforeAll(async () => {
  dir = await tempDir("runs-layout-");
  content = join(dir.path, "content");
  await cp(fixture("tiny"), content, { recursive: true });
});
afterAll(() => dir?.remove());

it("writes no list page, the hash tree of a full build, and the same R2 build as the full tree", async () => {
  const full = join(dir.path, "full");
  const edge = join(dir.path, "edge");
  await build({ contentDir: content, outDir: full });
  const result = await build({ contentDir: content, outDir: edge, layout: "runs" });
  expect(result.layout).toBe("runs");
  expect(existsSync(join(full, "v1/software/pages/all/20/0.json"))).toBe(true);
  expect(existsSync(join(edge, "v1/software/pages"))).toBe(false);
  for (const file of ["v1/sync/index.json", "v1/software/alpha-mail.json", "runs/all.run", "runs/all.offsets"])
    expect((await readFile(join(edge, file))).equals(await readFile(join(full, file))), file).toBe(true);
  // H6: both layouts of one build hold the same files, the page files aside; their indexes differ by the layout alone
  expect(await filesButPages(edge)).toEqual(await filesButPages(full));
  expect(indexButLayout(edge)).toEqual(indexButLayout(full));
  expect(JSON.parse(await readFile(join(edge, "build-index.json"), "utf8")).layout).toBe("runs");
  // L1: every page file of the pages build is its list's run sliced by its offsets, in the envelope
  const l1 = await pagesAgainstRuns(full);
  expect(l1.differ).toEqual([]);
  expect(l1.compared).toBeGreaterThan(1_000);
  const fromFull = await uploadToR2(full, memoryBucket().target);
  const fromEdge = await uploadToR2(edge, memoryBucket().target);
  expect(fromEdge.build).toBe(fromFull.build);
  expect(fromEdge.storedBytes).toBe(fromFull.storedBytes);
});

// nginx serves it (test/integration/hosts/nginx/runs.test.ts)
it("serve, validate and export refuse it with one line; a running server keeps the build before it", async () => {
  const dist = join(dir.path, "dist");
  await build({ contentDir: content, outDir: dist });
  let server: RunningServer | undefined;
  try {
    server = await startServer({ distDir: dist, port: 0 });
    const page = `${server.url}${server.basePath}/software?limit=2`;
    const before = await (await fetch(page)).text();
    // a new name for a tool, so a switch would show
    const file = join(content, "tools/alpha-mail.json");
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, "utf8")), name: "Aardvark Mail" }));
    await build({ contentDir: content, outDir: dist, layout: "runs" });
    await new Promise((r) => setTimeout(r, 1500)); // past B5's second
    const after = await fetch(page);
    expect(after.status).toBe(200);
    expect(await after.text()).toBe(before);
  } finally {
    await server?.close();
  }
  for (const [entry, ...args] of [
    ["scripts/commands/serve.ts"],
    ["scripts/commands/validate.ts"],
    ["scripts/commands/export.ts", "--out", join(dir.path, "exported")],
  ] as string[][]) {
    const run = await promisify(execFile)(process.execPath, launchArgs(entry!, "--dist", dist, ...args), {
      env: { ...process.env, PORT: "0" },
    }).then(
      () => ({ code: 0, stdout: "", stderr: "" }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(run.code, entry).toBe(1);
    expect(run.stderr.trim().split("\n"), entry).toEqual([
      expect.stringMatching(/is a runs-layout build \(no list pages\)/),
    ]);
  }
}, 60_000);
