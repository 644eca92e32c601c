// Shared by the publication tests: the build CLI as a child process, and what a store holds.
import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile, readlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CONTENT_CACHE_FILE, CONTENT_CHANGES_FILE } from "../../../scripts/content/content-cache.ts";
import { WARNING_HISTORY_FILE } from "../../../scripts/content/warning-history.ts";
import { PIECE_ID_CACHE_FILE } from "../../../scripts/io/piece-id-cache.ts";
import { STORE_MARKER } from "../../../scripts/io/store.ts";
import { CHANGES_FILE } from "../../../scripts/io/tree-report.ts";
import { repoRoot } from "../fs/dirs.ts";

export const BUILD_SCRIPT = join(repoRoot, "scripts/commands/build.ts");

const LAUNCHER = join(repoRoot, "scripts/launcher/launch.cjs");

/** `scripts/commands/build.ts ARGS` started as `npm run build` starts it (without npm, which adds a second of start-up). */
export function startBuild(args: string[]): ChildProcess & {
  result: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [LAUNCHER, BUILD_SCRIPT, ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const result = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return Object.assign(child, { result });
}

export const runBuild = (args: string[]) => startBuild(args).result;

/** What a build printed on stderr besides its placeholder warnings (the fixtures' .example addresses): notices, errors. */
export const notices = (stderr: string): string =>
  stderr
    .split("\n")
    .filter((line) => !/^warning: /.test(line) && !/^ {2}/.test(line))
    .join("\n");

/**
 * Everything in the store but its marker and what builds keep for the next one (content cache, list pieces' ids,
 * warnings printed, changes against the build before), sorted: generations, and anything a build left behind.
 */
export async function storeEntries(out: string): Promise<string[]> {
  const kept = [
    STORE_MARKER,
    CONTENT_CACHE_FILE,
    CONTENT_CHANGES_FILE,
    PIECE_ID_CACHE_FILE,
    WARNING_HISTORY_FILE,
    CHANGES_FILE,
  ];
  return (await readdir(`${out}.builds`)).filter((n) => !kept.includes(n)).sort();
}

export const publishedGeneration = (out: string) => readlink(out);

/** Edits one content JSON file. */
export async function editJson(path: string, change: (data: Record<string, unknown>) => void): Promise<void> {
  const data = JSON.parse(await readFile(path, "utf8"));
  change(data);
  await writeFile(path, JSON.stringify(data, null, 2));
}
