// npm run upload:r2: publishes a built dist/ as a new immutable build in the R2 bucket of dist/wrangler.r2.jsonc, as
// Miniflare persists it locally (the bucket `npm run start:cloudflare -- --r2` serves) or with --remote on Cloudflare
// R2 over its S3 API, and switches the live build to it in one step. Also lists builds, rolls back and prunes. The
// flags, then one call into hosts/cloudflare/r2/ per action.
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { listBuilds, rollback } from "../hosts/cloudflare/r2/bucket.ts";
import { openBucket } from "../hosts/cloudflare/r2/open-bucket.ts";
import { progressPrinter } from "../hosts/cloudflare/r2/progress.ts";
import { prune } from "../hosts/cloudflare/r2/prune.ts";
import { listLine, prunedLine, summaryLine } from "../hosts/cloudflare/r2/summary.ts";
import { uploadToR2 } from "../hosts/cloudflare/r2/upload.ts";
import { servedFilesOf } from "../io/tree-report.ts";

const options = {
  dist: { type: "string", default: "dist", valueName: "DIR", description: "the build to upload" },
  persist: { type: "string", valueName: "DIR", description: "the local R2 folder (default: DIR.r2 beside dist/)" },
  remote: {
    type: "boolean",
    default: false,
    description:
      "upload to Cloudflare R2 (S3 API; needs R2_ACCOUNT_ID or R2_ENDPOINT, R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY)",
  },
  bucket: {
    type: "string",
    valueName: "NAME",
    description: "with --remote: the bucket (default: the one in dist/wrangler.r2.jsonc)",
  },
  list: {
    type: "boolean",
    default: false,
    description: "list the builds in the bucket (id, date, files, which is live)",
  },
  rollback: {
    type: "boolean",
    default: false,
    description: "switch back to the build live before this one, or to the build named as the argument",
  },
  prune: {
    type: "boolean",
    default: false,
    description:
      "remove builds but the newest --keep and the live one, the packs only they use, and rewrite packs mostly unused",
  },
  build: {
    type: "string",
    valueName: "ID",
    description: "with --rollback: the build to switch to (also: --rollback ID); default: the one live before",
  },
  keep: { type: "string", default: "3", valueName: "N", description: "with --prune: builds to keep (at least 1)" },
  json: { type: "boolean", default: false, description: "print the summary as one JSON object" },
} as const;

export const UPLOAD_R2: CommandSpec<typeof options> = {
  usage: "npm run upload:r2 --",
  summary:
    "Publishes a built dist/ as a new build in the local R2 bucket, or with --remote in Cloudflare R2: sends only the " +
    "bodies the bucket does not have, compressed, in a few packs, then the shards of the build's manifest that changed, " +
    "then switches the live build to it in one step. A failed or killed upload leaves the live build as it was; the " +
    "next one resumes. See docs/hosts/cloudflare.md.",
  options,
  notes: [
    "--remote reads R2_ACCOUNT_ID, R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY (an R2 API token's S3 credentials); R2_ENDPOINT instead of R2_ACCOUNT_ID reaches any S3-compatible endpoint",
    "--remote deadlines and retries, in seconds: R2_CONNECT_TIMEOUT (default 10), R2_ANSWER_TIMEOUT (30: from the request sent to the answer), R2_STALL_TIMEOUT (30: without progress while a body streams), R2_RETRY_FOR (40: no new attempt after this), R2_TRIES (8 attempts a request)",
    "examples: npm run upload:r2 -- --list; npm run upload:r2 -- --rollback; npm run upload:r2 -- --prune --keep 5",
  ],
};

async function main(): Promise<void> {
  // `--rollback ID` as the issue and docs write it: the id is --build's value.
  const argv = process.argv.slice(2);
  const at = argv.indexOf("--rollback");
  if (at >= 0 && argv[at + 1] !== undefined && !argv[at + 1]!.startsWith("-")) argv.splice(at + 1, 0, "--build");
  const values = parseCommandArgs(UPLOAD_R2, argv);
  const actions = [values.list, values.rollback, values.prune].filter(Boolean).length;
  if (actions > 1) throw new UserError("--list, --rollback and --prune go one at a time", 2);
  if (values.build !== undefined && !values.rollback) throw new UserError("--build goes with --rollback", 2);
  const keep = Number(values.keep);
  if (!Number.isInteger(keep) || keep < 1) throw new UserError(`--keep ${values.keep}: a whole number of 1 or more`, 2);
  const distDir = resolve(values.dist);
  const { target, where, close } = await openBucket(values);
  const print = (value: object, line: string) =>
    console.log(values.json ? JSON.stringify({ ok: true, ...value }) : line);
  const failed = (what: string) => (e: Error) => {
    if (e instanceof UserError) throw e;
    throw new UserError(`${what} ${where} failed: ${e.message.split("\n")[0]}`);
  };
  try {
    if (values.list) {
      const builds = await listBuilds(target).catch(failed("listing"));
      print(
        { target: where, builds },
        builds.length === 0 ? `no build in ${where} yet` : builds.map(listLine).join("\n"),
      );
    } else if (values.rollback) {
      const done = await rollback(target, values.build).catch(failed("rollback in"));
      print({ target: where, ...done }, `R2: build ${done.build} is live again (was ${done.previous})`);
    } else if (values.prune) {
      const done = await prune(target, keep).catch(failed("prune of"));
      print({ target: where, ...done }, prunedLine(done, keep));
    } else {
      const progress = progressPrinter();
      const summary = await uploadToR2(distDir, target, { onProgress: progress.onProgress })
        .catch(failed("upload to"))
        .finally(() => progress.done());
      const served = await servedFilesOf(await realpath(distDir));
      print({ target: where, ...summary, served }, summaryLine(summary, served));
    }
  } finally {
    await close();
  }
}

// Exits once the outcome is printed: a failed upload does not wait for requests still in flight to give up too.
if (isMain(import.meta.url))
  void runCommand(main, { json: () => process.argv.includes("--json") }).then(() => process.exit());
