// Cluster workers run the server from one esbuild bundle rather than through tsx: tsx's loader costs every process
// about 30 MiB (a module-hooks thread), and the server's modules import only node: built-ins, so the bundle stands
// alone in a temporary folder. Without esbuild the workers load the TypeScript through tsx, as the primary does.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface WorkerEntry {
  /** the script each worker runs, and node's flags for it */
  exec: string;
  execArgv: string[];
  remove(): void;
}

// A young generation of 4 MiB (16 by default): on the cold set the group peaked at about 222, 230, 241 and 256 MiB
// with 2, 4, 8 and 16 MiB; 2 MiB also cost about 6 % of req/s in collections, above 4 the gain was within noise.
const WORKER_FLAGS = ["--max-semi-space-size=4"];

const SOURCE = fileURLToPath(new URL("./cluster-worker.ts", import.meta.url));

export async function workerEntry(): Promise<WorkerEntry> {
  let dir: string | undefined;
  try {
    const esbuild = await import("esbuild");
    dir = mkdtempSync(join(tmpdir(), "msapi-serve-"));
    const exec = join(dir, "worker.mjs");
    await esbuild.build({ entryPoints: [SOURCE], outfile: exec, bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "silent" });
    await esbuild.stop(); // its service process would otherwise live (and count) in the server's process group
    const made = dir;
    return { exec, execArgv: WORKER_FLAGS, remove: () => rmSync(made, { recursive: true, force: true }) };
  } catch {
    if (dir) rmSync(dir, { recursive: true, force: true });
    // The primary's own flags load tsx (node --import tsx, or the tsx command's loader); else ask for it.
    const viaTsx = process.execArgv.some((a) => a.includes("tsx"));
    return { exec: SOURCE, execArgv: [...(viaTsx ? process.execArgv : [...process.execArgv, "--import", "tsx"]), ...WORKER_FLAGS], remove() {} };
  }
}
