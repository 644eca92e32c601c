// vitest globalSetup of the conformance-r2 project: the catalog the conformance project builds (the sample, or
// CONFORMANCE_CONTENT: the bench runs it over 1,000 tools), built once and published once to local R2 at `<dist>.r2`
// (the upload command's default); each test file's host copies that bucket, so local R2 writes are paid once, not once
// per file. With lists stored as pieces the sample's bucket takes a few hundred bodies, not one per page. Same
// provided context as build-catalog.ts, so the same suite runs unchanged.
import type { TestProject } from "vitest/node";
import { buildSite } from "../helpers/build/built-site.ts";
import { plantCanaries } from "../helpers/conformance/canary.ts";
import { startSharedHosts } from "../helpers/conformance/shared-hosts.ts";
import { chooseContentDir } from "./build-catalog.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const contentDir = chooseContentDir();
  // A runs build (no page files): the Worker answers every page from its lists' pieces in R2 (L2).
  const site = await buildSite({ content: contentDir, prefix: "conformance-r2-", layout: "runs" });
  const { dist: distDir, result } = site;
  await plantCanaries(distDir);
  const { startLocalWorker } = await import("../../scripts/hosts/cloudflare/local/workerd.ts");
  const { uploadToR2 } = await import("../../scripts/hosts/cloudflare/r2/upload.ts");
  const worker = await startLocalWorker({ distDir, mode: "r2", r2Persist: `${distDir}.r2`, port: 0, uploader: true });
  try {
    const uploaded = await uploadToR2(distDir, await worker.uploadTarget());
    console.log(
      `conformance-r2: built ${contentDir} (${result.tools} tools) and uploaded ${uploaded.objects} bodies and pieces in ${uploaded.seconds.toFixed(1)} s`,
    );
  } finally {
    await worker.close();
  }
  project.provide("distDir", distDir);
  project.provide("contentDir", contentDir);
  const stopHosts = await startSharedHosts(project, { pages: distDir });
  return () => stopHosts().finally(() => site.remove());
}
