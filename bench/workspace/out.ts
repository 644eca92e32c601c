// bench/out/: the generated catalogs and built trees, named by size, and the disk-space guard around them.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatGB, freeBytes, removeTree, settleDisk } from "../measure/disk.ts";
import { type BuildRun, runBuild } from "../measure/run-build.ts";
import { writeBenchCatalog } from "./catalog.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Where a run builds its trees: bench/out, or BENCH_OUT (two runs on one checkout must not share, nor delete, one). */
export const OUT = process.env.BENCH_OUT ? resolve(process.env.BENCH_OUT) : join(ROOT, "bench", "out");

export const contentDir = (n: number) => join(OUT, `content-${n}`);
export const distDir = (n: number) => join(OUT, `dist-${n}`);

/** Measured tree sizes, so larger trees are estimated from real ones. */
const measured: { n: number; bytes: number }[] = [];

export function recordTreeSize(n: number, bytes: number): void {
  measured.push({ n, bytes });
}

/** Bytes of the built tree for n tools: scaled from the nearest measured build (pages grow a bit faster than n). */
export function estimateTreeBytes(n: number): number {
  const ref = [...measured].sort((a, b) => Math.abs(a.n - n) - Math.abs(b.n - n))[0];
  if (!ref) return n * 6e6;
  return ref.bytes * Math.max(1, (n / ref.n) ** 1.3);
}

/** null when there is room for `copies` trees of n tools, else why not. */
export async function lackOfSpace(n: number, copies: number): Promise<string | null> {
  const need = copies * estimateTreeBytes(n);
  const free = await freeBytes(OUT);
  if (free >= need) return null;
  return `n = ${n.toLocaleString("en-US")} needs about ${formatGB(need)} free (${copies} × a ~${formatGB(estimateTreeBytes(n))} tree), only ${formatGB(free)} free`;
}

/** Writes the catalog for n tools and builds it into a fresh dist-n, timed. */
export async function freshBuild(n: number, buildArgs: string[]): Promise<BuildRun> {
  await mkdir(OUT, { recursive: true });
  await writeBenchCatalog(n, contentDir(n));
  await removeTree(distDir(n));
  await removeTree(`${distDir(n)}.builds`); // dist-n is a link into its store of builds
  await settleDisk();
  const run = await runBuild(contentDir(n), distDir(n), buildArgs);
  recordTreeSize(n, run.bytes);
  return run;
}

export const hasBuild = (n: number) => existsSync(join(distDir(n), "routes.json"));

export async function removeBuild(n: number): Promise<void> {
  await removeTree(distDir(n));
  await removeTree(`${distDir(n)}.builds`);
  await removeTree(contentDir(n));
}

export async function removeAll(): Promise<void> {
  await removeTree(OUT);
}
