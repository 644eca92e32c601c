// vitest globalSetup: builds the sample catalog once into a fresh temp dir and hands its paths to the conformance suite.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { build } from "../../scripts/build.ts";
import { buildSite } from "../helpers/build/built-site.ts";
import { plantCanaries } from "../helpers/conformance/canary.ts";
import { startSharedHosts } from "../helpers/conformance/shared-hosts.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** the built dist/ every host serves */
    distDir: string;
    /** the catalog it was built from: the suite's oracle reads facts from here, never from hard-coded numbers */
    contentDir: string;
    /** the same catalog built with --layout runs (each list once, no page file), for the hosts that take that layout */
    runsDistDir?: string;
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
  const site = await buildSite({ content: contentDir, prefix: "conformance-" });
  const { dist: distDir, result } = site;
  const runsDistDir = join(site.dir, "dist-runs");
  const runs = await build({ contentDir, outDir: runsDistDir, layout: "runs" });
  // dotfiles a careless host would serve: P7 checks none of them ever is
  await plantCanaries(distDir);
  await plantCanaries(runsDistDir);
  console.log(
    `conformance: built ${result.files} files from ${contentDir} (${result.tools} tools) in ${result.seconds.toFixed(1)} s, ` +
      `its runs layout in ${runs.seconds.toFixed(1)} s`,
  );
  project.provide("distDir", distDir);
  project.provide("runsDistDir", runsDistDir);
  project.provide("contentDir", contentDir);
  const stopHosts = await startSharedHosts(project, { pages: distDir, runs: runsDistDir });
  return () => stopHosts().finally(() => site.remove());
}
