// Which storage the serve step's Worker uses: Static Assets while the tree fits, else the R2 bucket the r2 step
// filled beside dist-n (steps/r2.ts), brought up to date with this dist first so start-up stays short.
import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { startLocalWorker } from "../../scripts/hosts/cloudflare/local/workerd.ts";
import { measurePublished, planFor } from "../../scripts/hosts/cloudflare/plan.ts";
import { publishedFiles, uploadToR2 } from "../../scripts/hosts/cloudflare/r2/upload.ts";

/** Extra start-cloudflare arguments for this dist: none (Static Assets) or an R2 bucket served as it is. */
export async function workerStorageArgs(dist: string, log: (line: string) => void = console.error): Promise<string[]> {
  const bucket = `${dist}.r2`;
  if (!existsSync(bucket)) return [];
  const root = await realpath(dist);
  if (planFor(await measurePublished(root, await publishedFiles(root))) !== "r2") return [];
  // Same catalog as the r2 step's build but for its one-price edit: only those objects are sent.
  const worker = await startLocalWorker({ distDir: root, mode: "r2", r2Persist: bucket, port: 0, uploader: true });
  try {
    const s = await uploadToR2(root, await worker.uploadTarget());
    log(
      `serve cloudflare worker: past the Static Assets limits, serving the R2 bucket ${bucket} (build ${s.build} live: ${s.sent} bodies sent)`,
    );
  } finally {
    await worker.close();
  }
  return ["--r2", "--as-is", "--persist", bucket];
}
