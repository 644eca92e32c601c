// npm run start:cloudflare: a built dist/ through the generated Worker in workerd (Miniflare), offline, as it would
// run on Cloudflare: Workers Static Assets by default, or `--r2` to fill a local R2 bucket from dist/ and serve that.
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../../cli/command.ts";
import { onStopRequest } from "../../cli/stop.ts";
import { startLocalWorker } from "./local-worker.ts";
import { describePlan, measurePublished, planFor } from "./plan.ts";
import { publishedFiles, uploadToR2 } from "./upload-r2.ts";

const options = {
  dist: { type: "string", default: "dist", valueName: "DIR", description: "the build to serve" },
  r2: {
    type: "boolean",
    default: false,
    description: "serve from a local R2 bucket, first filled from dist/ (changed objects only)",
  },
  "as-is": {
    type: "boolean",
    default: false,
    description: "with --r2: serve the local bucket as it is, without filling it from dist/ first",
  },
  persist: {
    type: "string",
    valueName: "DIR",
    description: "where the local R2 bucket lives (default: DIR.r2 beside dist/)",
  },
} as const;

export const START_CLOUDFLARE: CommandSpec<typeof options> = {
  usage: "npm run start:cloudflare --",
  summary:
    "Serves a built dist/ through the generated Cloudflare Worker (dist/cloudflare/worker.js) in workerd, locally and " +
    "offline, with the bindings of dist/wrangler.jsonc (Static Assets) or, with --r2, dist/wrangler.r2.jsonc.",
  options,
  notes: ["environment: PORT (default 8787, 0 picks a free one), HOST (default 127.0.0.1)"],
};

function portFromEnv(): number {
  const port = Number(process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UserError(`PORT=${process.env.PORT} is no port number`);
  return port;
}

async function main(): Promise<void> {
  const values = parseCommandArgs(START_CLOUDFLARE);
  const port = portFromEnv();
  const distDir = resolve(values.dist);
  const root = await realpath(distDir).catch(() => {
    throw new UserError(`${values.dist}/ does not exist: run npm run build first`);
  });
  if (values["as-is"] && !values.r2) throw new UserError("--as-is goes with --r2", 2);
  // Serving a bucket as it is needs no walk over dist/ (281,000 files at n = 1,000).
  if (!values["as-is"]) {
    const size = await measurePublished(root, await publishedFiles(root));
    console.log(describePlan(size));
    if (!values.r2 && planFor(size) === "r2")
      throw new UserError(`${values.dist}/ is too large for Static Assets: use --r2`);
  }
  const persist = resolve(values.persist ?? `${distDir}.r2`);
  const worker = await startLocalWorker({
    distDir: root,
    mode: values.r2 ? "r2" : "assets",
    r2Persist: persist,
    port,
    host: process.env.HOST ?? "127.0.0.1",
    uploader: values.r2,
  });
  if (values.r2 && !values["as-is"]) {
    const summary = await uploadToR2(root, await worker.uploadTarget());
    console.log(
      `local R2 (${persist}): sent ${summary.sent.toLocaleString("en-US")}, deleted ${summary.deleted.toLocaleString("en-US")}, unchanged ${summary.unchanged.toLocaleString("en-US")} in ${summary.seconds.toFixed(1)} s`,
    );
  }
  console.log(
    `Cloudflare Worker (${values.r2 ? "R2" : "Static Assets"}) serving ${values.dist}/ at ${worker.url} (Ctrl-C stops it)`,
  );
  onStopRequest(() => worker.close());
}

if (isMain(import.meta.url)) await runCommand(main);
