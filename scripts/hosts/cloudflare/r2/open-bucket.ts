// The bucket `npm run upload:r2` works on: Cloudflare R2 over its S3 API (--remote), or the local one Miniflare
// persists, written through the uploader Worker.
import { readFile, realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UserError } from "../../../cli/command.ts";
import { R2_BINDING, WRANGLER_R2_CONFIG } from "../adapter.ts";
import { startLocalWorker } from "../local/workerd.ts";
import { remoteOptionsFromEnv, remoteR2Target } from "./remote.ts";
import type { UploadTarget } from "./target.ts";

export interface OpenBucket {
  target: UploadTarget;
  /** the bucket as messages name it: the local folder, or the endpoint and bucket without credentials */
  where: string;
  /** stops what reaching the bucket started (the local uploader Worker) */
  close(): Promise<void>;
}

/** The bucket name of the generated R2 config (JSON after one comment line). */
async function configuredBucket(distDir: string): Promise<string> {
  const file = join(distDir, WRANGLER_R2_CONFIG);
  const text = await readFile(file, "utf8").catch(() => {
    throw new UserError(`${file} is missing: build first (npm run build), or name the bucket with --bucket`);
  });
  const name = (
    JSON.parse(text.replace(/^\/\/.*\n/, "")) as { r2_buckets?: { binding: string; bucket_name: string }[] }
  ).r2_buckets?.find((b) => b.binding === R2_BINDING)?.bucket_name;
  if (!name) throw new UserError(`${file} names no ${R2_BINDING} bucket: use --bucket`);
  return name;
}

/** The bucket of a build at `dist`: with `remote`, `bucket` (default: the one the build's R2 config names) on R2;
 * else the local one at `persist` (default: DIR.r2 beside dist/). */
export async function openBucket(flags: {
  dist: string;
  remote: boolean;
  bucket?: string;
  persist?: string;
}): Promise<OpenBucket> {
  const distDir = resolve(flags.dist);
  if (flags.remote) {
    const root = await realpath(distDir).catch(() => {
      throw new UserError(`${flags.dist}/ does not exist: build first (npm run build)`);
    });
    const bucket = flags.bucket ?? (await configuredBucket(root));
    const remote = remoteOptionsFromEnv(bucket);
    // never a credential in a message, even one written into R2_ENDPOINT
    const shown = new URL(remote.endpoint);
    shown.username = "";
    shown.password = "";
    const where = `${shown.origin}${shown.pathname.replace(/\/+$/, "")}/${bucket}`;
    return { target: remoteR2Target(remote), where, close: async () => {} };
  }
  const where = resolve(flags.persist ?? `${distDir}.r2`);
  const worker = await startLocalWorker({ distDir, mode: "r2", r2Persist: where, port: 0, uploader: true });
  return { target: await worker.uploadTarget(), where, close: () => worker.close() };
}
