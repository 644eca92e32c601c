// The generated Worker (dist/cloudflare/worker.js) in workerd through Miniflare, offline: the bindings of
// dist/wrangler.jsonc (Static Assets) or dist/wrangler.r2.jsonc (R2, persisted in a local folder).
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import type { Miniflare, MiniflareOptions } from "miniflare";
import { UserError } from "../../../cli/command.ts";
import { isLoopbackAddress } from "../../../mcp/endpoint.ts";
import { ASSETS_BINDING, R2_BINDING, WORKER_FILE, WRANGLER_ASSETS_CONFIG, WRANGLER_R2_CONFIG } from "../adapter.ts";
import type { UploadTarget } from "../r2/target.ts";
import { localUploadTarget, UPLOADER_BINDING, UPLOADER_NAME, UPLOADER_SOURCE } from "./bucket-service.ts";

export type StorageMode = "assets" | "r2";

export interface LocalWorkerOptions {
  distDir: string;
  mode: StorageMode;
  /** R2 mode: the folder Miniflare persists the bucket in */
  r2Persist?: string;
  port?: number;
  host?: string;
  /** R2 mode: also run the bucket service (bucket-service.ts) on the same bucket */
  uploader?: boolean;
  /** R2 mode: every answer says how many R2 reads it took (X-R2-Reads), for tests and the benchmark */
  countReads?: boolean;
}

export interface LocalWorker {
  /** origin, e.g. http://127.0.0.1:8787 */
  url: string;
  miniflare: Miniflare;
  /** with `uploader: true`: the local R2 as an upload target */
  uploadTarget(): Promise<UploadTarget>;
  close(): Promise<void>;
}

interface WranglerConfig {
  main: string;
  compatibility_date: string;
  assets?: {
    directory: string;
    binding: string;
    run_worker_first?: boolean;
    html_handling?: string;
    not_found_handling?: string;
  };
  r2_buckets?: { binding: string; bucket_name: string }[];
}

/** No metrics, no cf.json download: Miniflare and wrangler stay offline. */
export function offline(): void {
  process.env.WRANGLER_SEND_METRICS = "false";
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
}

/** The generated config (JSON after a first comment line, as the adapter writes it). */
async function readConfig(distDir: string, name: string): Promise<WranglerConfig> {
  let text: string;
  try {
    text = await readFile(join(distDir, name), "utf8");
  } catch {
    throw new UserError(
      `${join(distDir, name)} is missing: build first (npm run build), with this version of the project`,
    );
  }
  return JSON.parse(text.replace(/^\/\/.*\n/, "")) as WranglerConfig;
}

/** Miniflare options equivalent to the generated wrangler config. */
export async function miniflareOptions({
  distDir,
  mode,
  r2Persist,
  port = 8787,
  host = "127.0.0.1",
  uploader = false,
  countReads = false,
}: LocalWorkerOptions): Promise<MiniflareOptions> {
  // One generation folder for the whole run, even if dist/ is a symlink republished meanwhile.
  const root = await realpath(distDir).catch(() => {
    throw new UserError(`${distDir} does not exist: build first (npm run build)`);
  });
  const config = await readConfig(root, mode === "assets" ? WRANGLER_ASSETS_CONFIG : WRANGLER_R2_CONFIG);
  // The Worker cannot see the address it listens on: told here, /mcp refuses a foreign Origin on loopback (M4).
  const bindings = {
    ...(isLoopbackAddress(host) ? { MCP_LOOPBACK_ONLY: "1" } : {}),
    ...(mode === "r2" && countReads ? { COUNT_R2_READS: "1" } : {}),
  };
  const base = {
    // The module's text, not its path: Miniflare names modules relative to the working directory, and workerd
    // refuses a name with `..` (a build outside the project, e.g. in /tmp).
    modules: [
      { type: "ESModule", path: "worker.js", contents: await readFile(join(root, config.main ?? WORKER_FILE), "utf8") },
    ],
    compatibilityDate: config.compatibility_date,
    bindings,
    cf: false,
    port,
    host,
  } satisfies MiniflareOptions;
  if (mode === "r2") {
    const bucket = config.r2_buckets?.find((b) => b.binding === R2_BINDING);
    if (!bucket) throw new UserError(`${WRANGLER_R2_CONFIG} has no ${R2_BINDING} bucket`);
    const { cf, port: _port, host: _host, ...api } = base;
    const shared = { cf, port, host, r2Persist: r2Persist ?? true };
    const worker = { ...api, r2Buckets: { [R2_BINDING]: bucket.bucket_name } };
    if (!uploader) return { ...shared, ...worker };
    // The first worker answers on the port; the uploader is reached only through miniflare.getWorker().
    const upload = {
      name: UPLOADER_NAME,
      modules: [{ type: "ESModule" as const, path: "uploader.js", contents: UPLOADER_SOURCE }],
      compatibilityDate: base.compatibilityDate,
      r2Buckets: { [UPLOADER_BINDING]: bucket.bucket_name },
    };
    return { ...shared, workers: [{ name: "api", ...worker }, upload] };
  }
  const assets = config.assets;
  if (!assets || assets.binding !== ASSETS_BINDING)
    throw new UserError(`${WRANGLER_ASSETS_CONFIG} has no ${ASSETS_BINDING} assets binding`);
  return {
    ...base,
    assets: {
      directory: join(root, assets.directory),
      binding: assets.binding,
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: assets.run_worker_first === true },
      assetConfig: {
        html_handling: assets.html_handling as "none",
        not_found_handling: assets.not_found_handling as "none",
      },
    },
  };
}

export async function startLocalWorker(options: LocalWorkerOptions): Promise<LocalWorker> {
  offline();
  const { Miniflare } = await import("miniflare");
  const miniflare = new Miniflare(await miniflareOptions(options));
  let url: URL;
  try {
    url = await miniflare.ready;
  } catch (e) {
    await miniflare.dispose().catch(() => {});
    // Miniflare's own refusals (too many assets, a file over 25 MiB) are what a user must fix: one line each.
    throw new UserError(`workerd did not start: ${(e as Error).message.split("\n").slice(0, 2).join(" ")}`);
  }
  return {
    url: url.origin,
    miniflare,
    uploadTarget: async () => {
      if (!options.uploader) throw new Error("startLocalWorker: uploadTarget() needs { uploader: true }");
      return localUploadTarget(
        (await miniflare.getWorker(UPLOADER_NAME)) as unknown as Parameters<typeof localUploadTarget>[0],
      );
    },
    close: () => miniflare.dispose(),
  };
}
