// Writes the files of a build that are not list pages, one by one: only those whose hash differs from the build
// before (all, in a full build), and removes those gone. Over a working copy an existing file is replaced by a new
// one renamed over it, never written into: its inode may be the published tree's (B2).
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { sha256Hex } from "../api/sha256-node.ts";
import type { OutputFile, OutputGroup } from "../render/output.ts";
import { siblingPaths, siblingsOf } from "./encodings.ts";
import { withPath } from "./file-errors.ts";
import type { Manifest } from "./manifest.ts";

export interface SmallStats {
  written: number;
  created: number;
  writtenBytes: number;
  removedBytes: number;
  deleted: number;
  // Maps, not records: a record of thousands of paths set one by one cost a rebuild ~20 ms.
  hashes: Map<string, string>;
  sizes: Map<string, number>;
  keys: Map<string, string>;
  /** the request target of each body served by URL */
  targets: Map<string, string>;
}

/** The part of the previous build's manifest one writer pass owns: the files it removes when it does not write them. */
export interface PreviousPart {
  manifest: Manifest;
  owns: (path: string) => boolean;
}

/** No files yet: what a pass starts from, and what passes are summed onto. */
export const emptySmallStats = (): SmallStats => ({
  written: 0,
  created: 0,
  writtenBytes: 0,
  removedBytes: 0,
  deleted: 0,
  hashes: new Map(),
  sizes: new Map(),
  keys: new Map(),
  targets: new Map(),
});

/**
 * Writes the files whose hash differs from `previous` (all, when there is none) and removes those gone. Over a
 * working copy an existing file is replaced by a new one renamed over it: its inode may be the published tree's.
 */
export async function writeSmallFiles(
  root: string,
  files: Iterable<OutputFile>,
  part: PreviousPart | undefined,
  compressUnder: string | false,
  groups: readonly OutputGroup[] = [],
): Promise<SmallStats> {
  const stats = emptySmallStats();
  const manifest = part?.manifest;
  const previous = manifest?.files;
  const inPlace = previous !== undefined;
  const madeDirs = new Set<string>();
  const put = async (path: string, body: Uint8Array) => {
    const target = join(root, path);
    const dir = dirname(target);
    if (!madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      madeDirs.add(dir);
    }
    const old = inPlace ? await sizeOf(target) : -1;
    if (old >= 0) stats.removedBytes += old;
    else stats.created++;
    const tmp = old >= 0 ? `${target}.tmp-${process.pid}` : target;
    await writeFile(tmp, body, { flag: "wx" }).catch((e: unknown) => Promise.reject(withPath(e, tmp)));
    if (tmp !== target) await rename(tmp, target);
    stats.written++;
    stats.writtenBytes += body.byteLength;
  };
  const remove = async (path: string) => {
    const old = await sizeOf(join(root, path));
    if (old < 0) return;
    stats.removedBytes += old;
    stats.deleted++;
    await rm(join(root, path));
  };

  /** The file the build before wrote at `path` from the same inputs (`key`): recorded as it is, never read. */
  const keep = (path: string, key: string, target: string | undefined) => {
    if (stats.hashes.has(path)) throw new Error(`two outputs write ${path}`);
    if (target !== undefined) stats.targets.set(path, target);
    stats.keys.set(path, key);
    stats.hashes.set(path, previous!.get(path)!);
    stats.sizes.set(path, manifest!.sizes.get(path)!);
  };
  const write = async (file: OutputFile) => {
    if (file.key !== undefined && previous?.has(file.path) && manifest!.keys.get(file.path) === file.key)
      return keep(file.path, file.key, file.target);
    if (stats.hashes.has(file.path)) throw new Error(`two outputs write ${file.path}`);
    if (file.target !== undefined) stats.targets.set(file.path, file.target);
    if (file.key !== undefined) stats.keys.set(file.path, file.key);
    // Read once (a shard renders on each read) and encoded once: hashed, measured and written as the same bytes.
    const read = file.body;
    const body = typeof read === "string" ? Buffer.from(read) : read;
    const hash = sha256Hex(body);
    stats.hashes.set(file.path, hash);
    stats.sizes.set(file.path, body.byteLength);
    if (previous?.get(file.path) === hash) return;
    file.check?.();
    await put(file.path, body);
    if (compressUnder === false || !file.path.startsWith(compressUnder)) return;
    const siblings = siblingsOf(file.path, Buffer.from(body));
    for (const s of siblings.write) await put(s.path, s.body);
    if (inPlace) for (const path of siblings.remove) await remove(path);
  };

  for (const file of files) await write(file);
  for (const group of groups) {
    // The build before made this group from the same inputs: its files are this build's, path for path.
    const kept = part ? [...manifest!.keys].filter(([path, key]) => key === group.key && part.owns(path)) : [];
    if (kept.length > 0) for (const [path] of kept) keep(path, group.key, group.targetOf(path));
    else for (const file of group.files()) await write(file);
  }
  for (const path of previous?.keys() ?? []) {
    if (stats.hashes.has(path) || !part!.owns(path)) continue;
    for (const p of [path, ...siblingPaths(path)]) await remove(p);
  }
  return stats;
}

/** The part of `manifest` whose paths `owns` accepts (none without a manifest). */
export const manifestPart = (
  manifest: Manifest | undefined,
  owns: (path: string) => boolean,
): PreviousPart | undefined => manifest && { manifest, owns };

/** Adds the later passes' stats into the first pass's (its maps hold thousands of paths: copying them cost ~20 ms). */
export function addSmallStats(into: SmallStats, ...passes: SmallStats[]): SmallStats {
  for (const s of passes) {
    into.written += s.written;
    into.created += s.created;
    into.writtenBytes += s.writtenBytes;
    into.removedBytes += s.removedBytes;
    into.deleted += s.deleted;
    for (const field of ["hashes", "sizes", "keys", "targets"] as const)
      for (const [path, value] of s[field]) (into[field] as Map<string, unknown>).set(path, value);
  }
  return into;
}

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => -1,
  );
