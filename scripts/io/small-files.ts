// Writes the files of a build that are not list pages, one by one: only those whose hash differs from the build
// before (all, in a full build), and removes those gone. Over a working copy an existing file is replaced by a new
// one renamed over it, never written into: its inode may be the published tree's (B2).
//
// Synchronous calls: each call through the thread pool is a round trip between threads (several times the cost of a
// stat or a small write itself), and nothing else runs on this thread meanwhile; the page writer is a
// thread of its own, given its whole job at once.
import { mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256Hex } from "../api/sha256-node.ts";
import type { BodyText, OutputFile, OutputGroup } from "../render/output.ts";
import { siblingPaths, siblingsOf } from "./encodings.ts";
import { withPath } from "./file-errors.ts";
import { collectIfGrown } from "./heap-growth.ts";
import type { Manifest } from "./manifest.ts";
import { writeInPieces } from "./write-in-pieces.ts";

/** Files handled between two turns of the event loop. */
const FILES_PER_TURN = 256;

export interface SmallStats {
  written: number;
  created: number;
  writtenBytes: number;
  removedBytes: number;
  deleted: number;
  /** bodies made (a kept one is not), and their bytes */
  rendered: number;
  renderedBytes: number;
  /** bodies hashed, and the bytes fed to SHA-256: the bench judges these exactly (a body hashed twice counts twice) */
  hashed: number;
  hashedBytes: number;
  // Maps, not records: a record of thousands of paths set one by one is slow to fill, on every rebuild.
  hashes: Map<string, string>;
  sizes: Map<string, number>;
  keys: Map<string, string>;
  /** the request target of each body served by URL */
  targets: Map<string, string>;
  /** paths whose bytes differ from the build before's (new ones too), those it had that are gone, and the files with
   *  no request target: what io/tree-report.ts looks at instead of every path */
  changedPaths: string[];
  removedPaths: string[];
  untargeted: string[];
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
  rendered: 0,
  renderedBytes: 0,
  hashed: 0,
  hashedBytes: 0,
  hashes: new Map(),
  sizes: new Map(),
  keys: new Map(),
  targets: new Map(),
  changedPaths: [],
  removedPaths: [],
  untargeted: [],
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
  /** The absolute path of `path`, its folder made (once per folder). */
  const targetOf = (path: string) => {
    const target = join(root, path);
    const dir = dirname(target);
    if (!madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    return target;
  };
  /** A body's SHA-256, counted. */
  const hashOf = (body: Uint8Array) => {
    stats.hashed++;
    stats.hashedBytes += body.byteLength;
    return sha256Hex(body);
  };
  /** Records the hash and size of the body made for `path`; true when its bytes differ from the build before's. */
  const recordIsNew = (path: string, sha256: string, size: number) => {
    stats.rendered++;
    stats.renderedBytes += size;
    stats.hashes.set(path, sha256);
    stats.sizes.set(path, size);
    if (previous?.get(path) === sha256) return false;
    stats.changedPaths.push(path);
    return true;
  };
  /** The file's absolute path, its folder made; counted as created or as replacing what is there. */
  const placeOf = (path: string, size: number) => {
    const target = targetOf(path);
    const old = inPlace ? sizeOf(target) : -1;
    if (old >= 0) stats.removedBytes += old;
    else stats.created++;
    stats.written++;
    stats.writtenBytes += size;
    return { target, replaces: old >= 0 };
  };
  const put = (path: string, body: Uint8Array) => {
    const { target, replaces } = placeOf(path, body.byteLength);
    const tmp = replaces ? `${target}.tmp-${process.pid}` : target;
    try {
      writeFileSync(tmp, body, { flag: "wx" });
    } catch (e) {
      throw withPath(e, tmp);
    }
    if (tmp !== target) renameSync(tmp, target);
  };
  /** A body made in pieces: written beside its place as it is made, then renamed into place if its bytes are new. */
  const putPieces = (file: OutputFile, pieces: Iterable<BodyText>) => {
    const tmp = `${targetOf(file.path)}.tmp-${process.pid}`;
    const { sha256, size } = writeInPieces(tmp, pieces);
    // hashed as it was written
    stats.hashed++;
    stats.hashedBytes += size;
    if (!recordIsNew(file.path, sha256, size)) return void unlinkSync(tmp);
    try {
      file.check?.();
    } catch (e) {
      unlinkSync(tmp);
      throw e;
    }
    renameSync(tmp, placeOf(file.path, size).target);
  };
  const remove = (path: string) => {
    const old = sizeOf(join(root, path));
    if (old < 0) return;
    stats.removedBytes += old;
    stats.deleted++;
    unlinkSync(join(root, path));
  };

  /** The file the build before wrote at `path` from the same inputs (`key`): recorded as it is, never read. */
  const keep = (path: string, key: string, target: string | undefined) => {
    if (stats.hashes.has(path)) throw new Error(`two outputs write ${path}`);
    if (target !== undefined) stats.targets.set(path, target);
    else stats.untargeted.push(path);
    stats.keys.set(path, key);
    stats.hashes.set(path, previous!.get(path)!);
    stats.sizes.set(path, manifest!.sizes.get(path)!);
  };
  const write = (file: OutputFile) => {
    if (file.key !== undefined && previous?.has(file.path) && manifest!.keys.get(file.path) === file.key)
      return keep(file.path, file.key, file.target);
    if (stats.hashes.has(file.path)) throw new Error(`two outputs write ${file.path}`);
    if (file.target !== undefined) stats.targets.set(file.path, file.target);
    else stats.untargeted.push(file.path);
    if (file.key !== undefined) stats.keys.set(file.path, file.key);
    const compressed = compressUnder !== false && file.path.startsWith(compressUnder);
    if (file.pieces && !compressed) return putPieces(file, file.pieces());
    // Read once (a shard renders on each read) and encoded once: hashed, measured and written as the same bytes.
    const read = file.body;
    const body = typeof read === "string" ? Buffer.from(read) : read;
    if (!recordIsNew(file.path, file.sha256 ?? hashOf(body), body.byteLength)) return;
    file.check?.();
    put(file.path, body);
    if (!compressed) return;
    const siblings = siblingsOf(file.path, Buffer.from(body));
    for (const s of siblings.write) put(s.path, s.body);
    if (inPlace) for (const path of siblings.remove) remove(path);
  };

  // Now and then the event loop gets a turn: the page writer's progress messages get through during a full build.
  let sinceTurn = 0;
  const writeThenYield = async (file: OutputFile) => {
    write(file);
    if (++sinceTurn < FILES_PER_TURN) return;
    sinceTurn = 0;
    collectIfGrown();
    await new Promise((resolve) => setImmediate(resolve));
  };
  for (const file of files) await writeThenYield(file);
  for (const group of groups) {
    // The build before made this group from the same inputs: its files are this build's, path for path.
    // forEach: no [path, key] pair made for each of the manifest's thousands of rows.
    const kept: string[] = [];
    manifest?.keys.forEach((key, path) => {
      if (key === group.key && part!.owns(path)) kept.push(path);
    });
    if (kept.length > 0) for (const path of kept) keep(path, group.key, group.targetOf(path));
    else for (const file of group.files()) await writeThenYield(file);
  }
  for (const path of previous?.keys() ?? []) {
    if (stats.hashes.has(path) || !part!.owns(path)) continue;
    stats.removedPaths.push(path);
    for (const p of [path, ...siblingPaths(path)]) remove(p);
  }
  return stats;
}

/** The part of `manifest` whose paths `owns` accepts (none without a manifest). */
export const manifestPart = (
  manifest: Manifest | undefined,
  owns: (path: string) => boolean,
): PreviousPart | undefined => manifest && { manifest, owns };

/** Adds the later passes' stats into the first pass's (its maps hold thousands of paths: copying them is slow). */
export function addSmallStats(into: SmallStats, ...passes: SmallStats[]): SmallStats {
  for (const s of passes) {
    into.written += s.written;
    into.created += s.created;
    into.writtenBytes += s.writtenBytes;
    into.removedBytes += s.removedBytes;
    into.deleted += s.deleted;
    into.rendered += s.rendered;
    into.renderedBytes += s.renderedBytes;
    into.hashed += s.hashed;
    into.hashedBytes += s.hashedBytes;
    for (const field of ["hashes", "sizes", "keys", "targets"] as const)
      for (const [path, value] of s[field]) (into[field] as Map<string, unknown>).set(path, value);
    for (const field of ["changedPaths", "removedPaths", "untargeted"] as const)
      for (const path of s[field]) into[field].push(path);
  }
  return into;
}

/** The size of the file at `path`, or -1 when it cannot be found. */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
}
