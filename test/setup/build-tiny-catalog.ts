// vitest globalSetup of the conformance-r2 project: the tiny fixture, built once, for hosts too slow to fill with the
// sample (local R2). Same provided context as build-catalog.ts, so the same suite runs unchanged. The local R2 is
// filled once here, at `<dist>.r2` (the upload command's default): each test file's host copies it, so local R2
// writes (milliseconds each) are paid once, not once per file.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { build } from "../../scripts/build.ts";
import { CANARY, CANARY_FILES } from "../helpers/conformance/canary.ts";
import { startSharedHosts } from "../helpers/conformance/shared-hosts.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const contentDir = resolve(import.meta.dirname, "../fixtures/tiny");
  const workDir = await mkdtemp(join(tmpdir(), "conformance-tiny-"));
  const distDir = join(workDir, "dist");
  await build({ contentDir, outDir: distDir });
  for (const file of CANARY_FILES) {
    await mkdir(dirname(join(distDir, file)), { recursive: true });
    await writeFile(join(distDir, file), JSON.stringify({ canary: CANARY }));
  }
  const { startLocalWorker } = await import("../../scripts/hosts/cloudflare/local/workerd.ts");
  const { uploadToR2 } = await import("../../scripts/hosts/cloudflare/r2/upload.ts");
  const worker = await startLocalWorker({ distDir, mode: "r2", r2Persist: `${distDir}.r2`, port: 0, uploader: true });
  try {
    await uploadToR2(distDir, await worker.uploadTarget());
  } finally {
    await worker.close();
  }
  project.provide("distDir", distDir);
  project.provide("contentDir", contentDir);
  const stopHosts = await startSharedHosts(project, distDir);
  return () => stopHosts().finally(() => rm(workDir, { recursive: true, force: true }));
}
