// R2 upload of an n-tool build into the local R2 Miniflare persists, then of a one-price edit: objects sent,
// objects deleted, seconds. `npx tsx scripts/bench/bench-r2-upload.ts --n 80` (bench/out/r2-content-n, r2-dist-n, r2-n).
// Local R2 writes cost milliseconds per object on this machine (SQLite + a blob file each): a first upload of
// n = 1,000 (≈ 280,000 objects) takes tens of minutes here; the edit is what a publisher pays per change.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { isMain, parseCommandArgs, runCommand, UserError, type CommandSpec } from "../cli/command.ts";
import { startLocalWorker } from "../cloudflare/local-worker.ts";
import { uploadToR2, type UploadSummary } from "../cloudflare/upload-r2.ts";
import { changeOnePrice, writeBenchCatalog } from "./bench-catalog.ts";
import { runBuild } from "./run-build.ts";
import { OUT } from "./workspace.ts";

// Its own catalog and build (not the serve step's dist-n): another step rebuilding dist-n would recycle the
// generation this upload reads.
const contentDir = (n: number) => join(OUT, `r2-content-${n}`);
const distDir = (n: number) => join(OUT, `r2-dist-${n}`);

export interface R2UploadResult {
  n: number;
  files: number;
  first: Pick<UploadSummary, "sent" | "sentBytes" | "deleted" | "seconds">;
  change: string;
  /** rebuild after the edit (incremental), then its upload */
  rebuildSeconds: number;
  edit: Pick<UploadSummary, "sent" | "sentBytes" | "deleted" | "unchanged" | "seconds">;
}

const pick = ({ sent, sentBytes, deleted, unchanged, seconds }: UploadSummary) => ({ sent, sentBytes, deleted, unchanged, seconds });

export async function benchR2Upload(n: number, buildArgs: string[] = [], log: (line: string) => void = console.log): Promise<R2UploadResult> {
  log(`r2 n=${n}: building…`);
  await writeBenchCatalog(n, contentDir(n));
  await runBuild(contentDir(n), distDir(n), buildArgs);
  const persist = join(OUT, `r2-${n}`);
  await rm(persist, { recursive: true, force: true });
  const worker = await startLocalWorker({ distDir: distDir(n), mode: "r2", r2Persist: persist, port: 0, uploader: true });
  try {
    const bucket = await worker.uploadTarget();
    let shown = Date.now();
    const progress = (done: number, total: number) => {
      if (Date.now() - shown < 30_000) return;
      shown = Date.now();
      log(`r2 n=${n}: ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} objects…`);
    };
    log(`r2 n=${n}: first upload…`);
    const first = await uploadToR2(distDir(n), bucket, { onProgress: progress });
    const change = await changeOnePrice(contentDir(n), n);
    const rebuild = await runBuild(contentDir(n), distDir(n), buildArgs);
    log(`r2 n=${n}: ${change}; uploading the edit…`);
    const edit = await uploadToR2(distDir(n), bucket);
    return { n, files: first.files, first: pick(first), change, rebuildSeconds: rebuild.seconds, edit: pick(edit) };
  } finally {
    await worker.close();
    await rm(persist, { recursive: true, force: true });
  }
}

const options = {
  n: { type: "string", default: "80", valueName: "TOOLS", description: "catalog size" },
  json: { type: "boolean", default: false, description: "print the result as one JSON object" },
} as const;

const SPEC: CommandSpec<typeof options> = {
  usage: "npx tsx scripts/bench/bench-r2-upload.ts --",
  summary: "Measures the R2 upload of an n-tool build into Miniflare's local R2, then of a one-price edit (objects sent, seconds).",
  options,
};

async function main(): Promise<void> {
  const values = parseCommandArgs(SPEC);
  const n = Number(values.n);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--n ${values.n} is no tool count`, 2);
  const result = await benchR2Upload(n, [], values.json ? () => {} : console.log);
  if (values.json) console.log(JSON.stringify(result));
  else
    console.log(
      `n=${n}: ${result.files.toLocaleString("en-US")} objects; first upload ${result.first.sent.toLocaleString("en-US")} sent in ${result.first.seconds.toFixed(1)} s; ` +
        `one-price edit (${result.change}): rebuild ${result.rebuildSeconds.toFixed(1)} s, ${result.edit.sent.toLocaleString("en-US")} sent, ` +
        `${result.edit.deleted} deleted in ${result.edit.seconds.toFixed(1)} s`,
    );
}

if (isMain(import.meta.url)) await runCommand(main, { json: () => process.argv.includes("--json") });
