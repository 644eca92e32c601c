// npm run upload:r2: sends a built dist/ to the R2 bucket of dist/wrangler.r2.jsonc as Miniflare persists it
// locally (the bucket `npm run start:cloudflare -- --r2` serves), or with --remote to Cloudflare R2 over its S3 API;
// changed objects only, deleting removed ones.
import { readFile, realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type CommandSpec, formatCount, isMain, parseCommandArgs, runCommand, UserError } from "../../cli/command.ts";
import { R2_BINDING, WRANGLER_R2_CONFIG } from "./adapter.ts";
import { startLocalWorker } from "./local-worker.ts";
import { remoteOptionsFromEnv, remoteR2Target } from "./remote-r2.ts";
import { type UploadSummary, type UploadTarget, uploadToR2 } from "./upload-r2.ts";

const options = {
  dist: { type: "string", default: "dist", valueName: "DIR", description: "the build to upload" },
  persist: { type: "string", valueName: "DIR", description: "the local R2 folder (default: DIR.r2 beside dist/)" },
  remote: {
    type: "boolean",
    default: false,
    description: "upload to Cloudflare R2 (S3 API; needs R2_ACCOUNT_ID, R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY)",
  },
  bucket: {
    type: "string",
    valueName: "NAME",
    description: "with --remote: the bucket (default: the one in dist/wrangler.r2.jsonc)",
  },
  full: { type: "boolean", default: false, description: "send every object, ignoring what the bucket says it has" },
  json: { type: "boolean", default: false, description: "print the summary as one JSON object" },
} as const;

export const UPLOAD_R2: CommandSpec<typeof options> = {
  usage: "npm run upload:r2 --",
  summary:
    "Uploads the files the Worker can answer with from a built dist/ to the local R2 bucket, or with --remote to " +
    "Cloudflare R2 (keys = dist/ paths, ETag as custom metadata), sending only objects whose bytes changed since the " +
    "last upload and deleting removed ones.",
  options,
  notes: ["--remote reads R2_ACCOUNT_ID, R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY (an R2 API token's S3 credentials)"],
};

export function summaryLine(s: UploadSummary): string {
  return (
    `R2: ${formatCount(s.files)} files; sent ${formatCount(s.sent)} (${(s.sentBytes / 1e6).toFixed(1)} MB), ` +
    `deleted ${formatCount(s.deleted)}, unchanged ${formatCount(s.unchanged)} in ${s.seconds.toFixed(1)} s` +
    (s.first ? " (first upload: no state in the bucket)" : "")
  );
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

async function main(): Promise<void> {
  const values = parseCommandArgs(UPLOAD_R2);
  const distDir = resolve(values.dist);
  let target: UploadTarget;
  let where: string;
  let close = async () => {};
  if (values.remote) {
    const root = await realpath(distDir).catch(() => {
      throw new UserError(`${values.dist}/ does not exist: build first (npm run build)`);
    });
    const bucket = values.bucket ?? (await configuredBucket(root));
    const remote = remoteOptionsFromEnv(bucket);
    target = remoteR2Target(remote);
    where = `${remote.endpoint}/${bucket}`;
  } else {
    where = resolve(values.persist ?? `${distDir}.r2`);
    const worker = await startLocalWorker({ distDir, mode: "r2", r2Persist: where, port: 0, uploader: true });
    close = () => worker.close();
    target = await worker.uploadTarget();
  }
  try {
    const tty = !values.json && process.stderr.isTTY;
    let shown = 0;
    const summary = await uploadToR2(distDir, target, {
      full: values.full,
      onProgress: (done, total, sent) => {
        const now = Date.now();
        if (!tty || (now - shown < 250 && done < total)) return;
        shown = now;
        process.stderr.write(`\rR2: ${formatCount(done)}/${formatCount(total)} checked, ${formatCount(sent)} sent…`);
      },
    }).catch((e: Error) => {
      throw new UserError(`upload to ${where} failed: ${e.message.split("\n")[0]}`);
    });
    if (tty) process.stderr.write("\r\x1b[K");
    console.log(values.json ? JSON.stringify({ ok: true, target: where, ...summary }) : summaryLine(summary));
  } finally {
    await close();
  }
}

if (isMain(import.meta.url)) await runCommand(main, { json: () => process.argv.includes("--json") });
