// vitest globalSetup of `npm run test:quick`: the tiny fixture, built once, for the Node server's conformance run.
// Same provided context as build-catalog.ts, so the same suite runs unchanged.
import type { TestProject } from "vitest/node";
import { buildSite } from "../helpers/build/built-site.ts";
import { plantCanaries } from "../helpers/conformance/canary.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const site = await buildSite({ prefix: "conformance-quick-" });
  await plantCanaries(site.dist);
  project.provide("distDir", site.dist);
  project.provide("contentDir", site.content);
  return () => site.remove();
}
