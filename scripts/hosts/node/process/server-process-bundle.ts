// Cluster server processes run the server from its cached esbuild bundle (scripts/launcher/bundle-cache.cjs) rather than through
// tsx: tsx's loader costs every process a module-hooks thread and its memory. Without a bundle the server processes load the
// TypeScript through tsx, as a primary run by tsx does.
import { fileURLToPath } from "node:url";
import { commandBundleOrNote } from "../../../launcher/bundle-cache.cjs";

export interface ServerProcessEntry {
  /** the script each server process runs, and node's flags for it */
  exec: string;
  execArgv: string[];
}

// A young generation of 4 MiB (16 by default): on the cold set a smaller one lowers the group's peak memory; 2 MiB
// also cost requests per second in collections, and above 4 the gain was within noise.
const SERVER_PROCESS_FLAGS = ["--max-semi-space-size=4"];

/** The script each server process runs, from the project's root: bundled as CommonJS (so: no top-level await). */
export const SERVER_PROCESS_ENTRY = "scripts/hosts/node/process/server-process.ts";
const SOURCE = fileURLToPath(new URL("./server-process.ts", import.meta.url));

export async function serverProcessEntry(): Promise<ServerProcessEntry> {
  const bundle = await commandBundleOrNote(SERVER_PROCESS_ENTRY, "server processes run");
  if (bundle) return { exec: bundle, execArgv: SERVER_PROCESS_FLAGS };
  // The primary's own flags load tsx (node --import tsx, or the tsx command's loader); else ask for it.
  const viaTsx = process.execArgv.some((a) => a.includes("tsx"));
  return {
    exec: SOURCE,
    execArgv: [...(viaTsx ? process.execArgv : [...process.execArgv, "--import", "tsx"]), ...SERVER_PROCESS_FLAGS],
  };
}
