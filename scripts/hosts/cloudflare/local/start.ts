// A built dist/ through the generated Worker in workerd (Miniflare), offline, as it would run on Cloudflare
// (`npm run start:cloudflare`: scripts/commands/start-cloudflare.ts): Workers Static Assets by default, or `--r2`:
// publish dist/ as a build in a local R2 bucket, then serve the bucket's live build. It listens only once the bucket
// has a complete live build, and follows the builds `npm run upload:r2 -- --persist` (another process) switches to,
// without a restart.
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { UserError } from "../../../cli/command.ts";
import { onStopRequest, type StopHandler } from "../../../cli/stop.ts";
import { describePlan, measurePublished, planFor } from "../plan.ts";
import { readLive } from "../r2/bucket.ts";
import { progressPrinter } from "../r2/progress.ts";
import { summaryLine } from "../r2/summary.ts";
import { publishedFiles, uploadToR2 } from "../r2/upload.ts";
import { startLocalWorker } from "./workerd.ts";

/**
 * Before the API listens: publish dist/ as the bucket's live build, or (as it is) wait until some upload has made one
 * live. Through the uploader Worker on a port of its own, closed before the API's port opens.
 */
async function readyBucket(distDir: string, persist: string, publish: boolean, stop: StopHandler): Promise<void> {
  const uploader = await startLocalWorker({ distDir, mode: "r2", r2Persist: persist, port: 0, uploader: true });
  stop.set(() => uploader.close());
  try {
    const target = await uploader.uploadTarget();
    if (publish) {
      const progress = progressPrinter();
      const summary = await uploadToR2(distDir, target, { onProgress: progress.onProgress }).finally(() =>
        progress.done(),
      );
      console.log(summaryLine(summary));
      return;
    }
    // Bounded by the user: Ctrl-C stops the wait as it stops the server.
    for (let said = false; !(await readLive(target)); said = true) {
      if (!said) console.log(`waiting for a complete build in ${persist} (npm run upload:r2 -- --persist ${persist})…`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await uploader.close();
  }
}

/** The flags of npm run start:cloudflare, as given (messages name --dist as the user wrote it). */
export interface LocalServeOptions {
  dist: string;
  r2: boolean;
  "as-is": boolean;
  persist?: string;
  port: number;
  host: string;
}

/** Serves dist/ (or with r2, the local bucket's live build) through the Worker in workerd until stopped. */
export async function serveWorkerLocally(values: LocalServeOptions): Promise<void> {
  const { port } = values;
  const distDir = resolve(values.dist);
  const root = await realpath(distDir).catch(() => {
    throw new UserError(`${values.dist}/ does not exist: run npm run build first`);
  });
  if (values["as-is"] && !values.r2) throw new UserError("--as-is goes with --r2", 2);
  // Serving a bucket as it is needs no walk over dist/ (281,000 files at n = 1,000 in a pages build; a runs build has
  // no list pages, and Static Assets serve it too: its pages come from its lists' pieces).
  if (!values["as-is"]) {
    const size = await measurePublished(root, await publishedFiles(root));
    console.log(describePlan(size));
    if (!values.r2 && planFor(size) === "r2")
      throw new UserError(`${values.dist}/ is too large for Static Assets: use --r2`);
  }
  const persist = resolve(values.persist ?? `${distDir}.r2`);
  const stop = onStopRequest(() => {});
  if (values.r2) await readyBucket(root, persist, !values["as-is"], stop);
  const worker = await startLocalWorker({
    distDir: root,
    mode: values.r2 ? "r2" : "assets",
    r2Persist: persist,
    port,
    host: values.host,
  });
  console.log(
    `Cloudflare Worker (${values.r2 ? `R2, ${persist}` : "Static Assets"}) serving ${values.r2 ? "the live build" : `${values.dist}/`} at ${worker.url} (Ctrl-C stops it)`,
  );
  stop.set(() => worker.close());
}
