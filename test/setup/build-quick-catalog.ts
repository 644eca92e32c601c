// vitest globalSetup of `npm run test:quick`: the tiny fixture, built once, for the Node server's conformance run.
// Same provided context as build-catalog.ts, so the same suite runs unchanged.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { build } from "../../scripts/build.ts";
import { CANARY, CANARY_FILES } from "../helpers/conformance/canary.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const contentDir = resolve(import.meta.dirname, "../fixtures/tiny");
  const workDir = await mkdtemp(join(tmpdir(), "conformance-quick-"));
  const distDir = join(workDir, "dist");
  await build({ contentDir, outDir: distDir });
  for (const file of CANARY_FILES) {
    await mkdir(dirname(join(distDir, file)), { recursive: true });
    await writeFile(join(distDir, file), JSON.stringify({ canary: CANARY }));
  }
  project.provide("distDir", distDir);
  project.provide("contentDir", contentDir);
  return () => rm(workDir, { recursive: true, force: true });
}
