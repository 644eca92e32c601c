// npm run upload:r2: sends a built dist/ to the R2 bucket of dist/wrangler.r2.jsonc as Miniflare persists it
// locally (the bucket `npm run start:cloudflare -- --r2` serves), changed objects only, deleting removed ones.
import { resolve } from "node:path";
import { R2_BINDING } from "../adapters/cloudflare.ts";
import { isMain, parseCommandArgs, runCommand, UserError, type CommandSpec } from "../cli/command.ts";
import { startLocalWorker } from "./local-worker.ts";
import { uploadToR2, type R2Target, type UploadSummary } from "./upload-r2.ts";

const options = {
  dist: { type: "string", default: "dist", valueName: "DIR", description: "the build to upload" },
  persist: { type: "string", valueName: "DIR", description: "the local R2 folder (default: DIR.r2 beside dist/)" },
  full: { type: "boolean", default: false, description: "send every object, ignoring what the bucket says it has" },
  json: { type: "boolean", default: false, description: "print the summary as one JSON object" },
} as const;

export const UPLOAD_R2: CommandSpec<typeof options> = {
  usage: "npm run upload:r2 --",
  summary:
    "Uploads the files the Worker can answer with from a built dist/ to the local R2 bucket (keys = dist/ paths, " +
    "ETag as custom metadata), sending only objects whose bytes changed since the last upload and deleting removed ones.",
  options,
};

export function summaryLine(s: UploadSummary): string {
  return (
    `R2: ${s.files.toLocaleString("en-US")} files; sent ${s.sent.toLocaleString("en-US")} (${(s.sentBytes / 1e6).toFixed(1)} MB), ` +
    `deleted ${s.deleted.toLocaleString("en-US")}, unchanged ${s.unchanged.toLocaleString("en-US")} in ${s.seconds.toFixed(1)} s` +
    (s.first ? " (first upload: no state in the bucket)" : "")
  );
}

async function main(): Promise<void> {
  const values = parseCommandArgs(UPLOAD_R2);
  const distDir = resolve(values.dist);
  const persist = resolve(values.persist ?? `${distDir}.r2`);
  const worker = await startLocalWorker({ distDir, mode: "r2", r2Persist: persist, port: 0 });
  try {
    const bucket = (await worker.miniflare.getR2Bucket(R2_BINDING)) as unknown as R2Target;
    const tty = !values.json && process.stderr.isTTY;
    let shown = 0;
    const summary = await uploadToR2(distDir, bucket, {
      full: values.full,
      onProgress: (done, total, sent) => {
        const now = Date.now();
        if (!tty || (now - shown < 250 && done < total)) return;
        shown = now;
        process.stderr.write(`\rR2: ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} checked, ${sent.toLocaleString("en-US")} sent…`);
      },
    }).catch((e: Error) => {
      throw new UserError(`upload to ${persist} failed: ${e.message.split("\n")[0]}`);
    });
    if (tty) process.stderr.write("\r\x1b[K");
    console.log(values.json ? JSON.stringify({ ok: true, persist, ...summary }) : summaryLine(summary));
  } finally {
    await worker.close();
  }
}

if (isMain(import.meta.url)) await runCommand(main, { json: () => process.argv.includes("--json") });
