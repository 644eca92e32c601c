// Disk facts the benchmark needs: free space, a flush before timing, and which files a build touched.
import { spawn } from "node:child_process";
import { mkdir, readdir, statfs, writeFile } from "node:fs/promises";
import { runOrThrow } from "./measured-run.ts";

export async function freeBytes(dir: string): Promise<number> {
  await mkdir(dir, { recursive: true });
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/**
 * Waits (at most two minutes) until the store folder holds no trash: the `rm` a rebuild leaves behind deletes a
 * replaced list of gigabytes, and the next timed rebuild would otherwise share the disk with it.
 */
export async function waitForTrash(storeDir: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const entries = await readdir(storeDir).catch(() => []);
    if (!entries.some((e) => e.startsWith("trash-"))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Flushes dirty pages, so the write-back of a previous step is not billed to the next one. */
async function syncDisk(): Promise<void> {
  await runOrThrow("sync", []);
}

/**
 * Before every timed step: flush dirty pages and, where allowed (root), drop the page, dentry and inode caches, so a
 * build and its tar floor start from the same kernel state. Without it, a tree deleted just before leaves the kernel
 * busy: the same build's time swung several-fold from one run to the next.
 */
export async function settleDisk(): Promise<void> {
  await syncDisk();
  await writeFile("/proc/sys/vm/drop_caches", "3").catch(() => undefined);
}

/** path → "inode mtime size" of every file under root (find is much faster than stat from JS at 300k files). */
export function snapshotTree(root: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const child = spawn("find", [root, "-type", "f", "-printf", "%i %T@ %s %P\\n"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const files = new Map<string, string>();
    let rest = "";
    let stderr = "";
    const take = (line: string) => {
      const m = /^(\S+ \S+ \S+) (.*)$/.exec(line);
      if (m) files.set(m[2]!, m[1]!);
    };
    child.stdout.on("data", (c: Buffer) => {
      const lines = (rest + c.toString()).split("\n");
      rest = lines.pop()!;
      lines.forEach(take);
    });
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      if (rest) take(rest);
      if (code === 0) resolve(files);
      else reject(new Error(`find ${root} exited ${code}: ${stderr.slice(-500)}`));
    });
  });
}

export interface TreeChanges {
  /** files new or rewritten (inode or mtime differ) */
  written: number;
  deleted: number;
  unchanged: number;
}

export function diffTrees(before: Map<string, string>, after: Map<string, string>): TreeChanges {
  let written = 0;
  let unchanged = 0;
  for (const [path, stamp] of after) {
    if (before.get(path) === stamp) unchanged++;
    else written++;
  }
  let deleted = 0;
  for (const path of before.keys()) if (!after.has(path)) deleted++;
  return { written, deleted, unchanged };
}

export const GB = 1e9;
export const formatGB = (bytes: number) => `${(bytes / GB).toFixed(1)} GB`;

/** Deletes a large tree (rm is much faster than fs.rm at 300k files). */
export async function removeTree(path: string): Promise<void> {
  await runOrThrow("rm", ["-rf", "--", path]);
}
