// vitest globalSetup: builds the sample catalog once into a fresh temp dir and hands its paths to the conformance suite.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { build } from "../../scripts/build.ts";
import { CANARY, CANARY_FILES } from "../helpers/conformance/canary.ts";
import { hostsOf, selectedHosts } from "../helpers/conformance/hosts.ts";
import { buildRunsTwin } from "../helpers/conformance/runs-twin.ts";
import { startSharedHosts } from "../helpers/conformance/shared-hosts.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** the built dist/ every host serves */
    distDir: string;
    /** the catalog it was built from: the suite's oracle reads facts from here, never from hard-coded numbers */
    contentDir: string;
  }
}

const root = resolve(import.meta.dirname, "../..");

/** content/ once it exists (the sample catalog), else the tiny fixture; CONFORMANCE_CONTENT overrides both. */
export function chooseContentDir(): string {
  if (process.env.CONFORMANCE_CONTENT) return resolve(process.env.CONFORMANCE_CONTENT);
  const sample = join(root, "content");
  return existsSync(join(sample, "site.json")) ? sample : join(root, "test/fixtures/tiny");
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const contentDir = chooseContentDir();
  const workDir = await mkdtemp(join(tmpdir(), "conformance-"));
  const distDir = join(workDir, "dist");
  const result = await build({ contentDir, outDir: distDir });
  // dotfiles a careless host would serve: P7 checks none of them ever is
  for (const file of CANARY_FILES) {
    await mkdir(dirname(join(distDir, file)), { recursive: true });
    await writeFile(join(distDir, file), JSON.stringify({ canary: CANARY }));
  }
  console.log(
    `conformance: built ${result.files} files from ${contentDir} (${result.tools} tools) in ${result.seconds.toFixed(1)} s`,
  );
  // the same catalog with --layout runs, for the hosts that serve that layout (nginx-runs)
  const env = { ...process.env, ...project.config.env };
  const selected = selectedHosts(env);
  const runs = hostsOf(env).filter((h) => !selected || selected.includes(h.name));
  const twin = await buildRunsTwin(runs, contentDir, distDir, { canaries: true });
  if (twin !== undefined) console.log(`conformance: built it with --layout runs in ${twin.toFixed(1)} s`);
  project.provide("distDir", distDir);
  project.provide("contentDir", contentDir);
  const stopHosts = await startSharedHosts(project, distDir);
  return () => stopHosts().finally(() => rm(workDir, { recursive: true, force: true }));
}
