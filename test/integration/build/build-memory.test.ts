// The build's memory grows with the catalog, not with its bodies: a memory bound measured, never a timing.
// Two real builds in child processes, each reporting its own peak RSS (every thread) as it exits; the bound is on
// what the larger catalog costs beyond the smaller one, so the Node version's own footprint cancels out.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCatalog, writeCatalog } from "../../../scripts/content/generate.ts";
import { buildProcessArgs, buildProcessEnv } from "../../../scripts/launcher/build-node-flags.ts";
import { repoRoot, tempDir } from "../../helpers/fs/dirs.ts";

const run = promisify(execFile);
const REPORTER = join(repoRoot, "test/helpers/process/report-max-rss.mjs");

/**
 * MiB a 300-tool build may use beyond a 30-tool one, both run with the build's Node flags and environment as npm runs it. Measured:
 * 35 MiB on Node 20, 40 on Node 24 (51 with Node's default young generation); the build that kept a string per page
 * for the hash tree used 65 on Node 20 (and 330 MB in all at n = 1,000).
 */
const GROWTH_BOUND_MIB = 56;

async function peakRssMiB(work: string, tools: number): Promise<number> {
  const content = join(work, `content-${tools}`);
  await writeCatalog(generateCatalog({ tools, categories: 12, seed: 7 }), content);
  const rssFile = join(work, `rss-${tools}`);
  await run(
    process.execPath,
    ["--import", REPORTER, ...buildProcessArgs("--content", content, "--out", join(work, `dist-${tools}`))],
    { cwd: repoRoot, env: { ...buildProcessEnv(), MAX_RSS_FILE: rssFile }, maxBuffer: 1 << 24 },
  );
  return Number(await readFile(rssFile, "utf8")) / 1024;
}

describe("build memory", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    work = await tempDir("msapi-memory-");
  });
  afterAll(() => work.remove());

  it(`a 300-tool build's peak RSS is at most ${GROWTH_BOUND_MIB} MiB above a 30-tool build's`, async () => {
    const small = await peakRssMiB(work.path, 30);
    const large = await peakRssMiB(work.path, 300);
    expect(small).toBeGreaterThan(20); // the reporter ran and measured a real process
    expect(large - small, `peak RSS: ${small.toFixed(0)} MiB at 30 tools, ${large.toFixed(0)} MiB at 300`).toBeLessThan(
      GROWTH_BOUND_MIB,
    );
  }, 180_000);
});
