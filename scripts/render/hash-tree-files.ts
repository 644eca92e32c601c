// Renders the hash tree (E2) of a build, format 2, after its bodies, runs and pieces: the shards of the bodies served
// by URL from the hashes the writers computed, one shard per list from its run's hash and its pieces, then the root
// from the shards' own hashes. When the build before had the same bodies (none added, none removed), only the shards
// holding a body that changed are rendered (its old shard patched); the others are kept by their key, unread.
// Nothing here writes: io/write-output.ts writes these files as they render.
import { fill } from "../api/runtime/route-table.ts";
import { sha1 } from "../launcher/file-hashes.cjs";
import type { BodyPart } from "./catalog-body.ts";
import {
  type BodyHash,
  bodyEntry,
  isSmallShard,
  kindOf,
  listEntry,
  listShardName,
  listTarget,
  parseShard,
  rootBody,
  shardBody,
  shardOf,
} from "./hash-tree.ts";
import type { OutputFile } from "./output.ts";
import type { Piece } from "./pieces.ts";
import type { PageList } from "./software-pages.ts";

export interface HashTreeLayout {
  basePath: string;
  /** the root's file, `v1/sync/index.json` */
  rootFile: string;
  /** a shard's file, `v1/sync/{shard}` where shard is `name.json` */
  shardFile: string;
  /** a piece's file, `v1/sync/pieces/{piece}` where piece is `<id>.json` */
  pieceFile: string;
}

/** What the writers know of each file: hashes and sizes by path, and the request target of each body served by URL. */
export interface SmallBodies {
  hashes: ReadonlyMap<string, string>;
  sizes: ReadonlyMap<string, number>;
  targets: ReadonlyMap<string, string>;
}

const shardPath = (layout: HashTreeLayout, name: string) => fill(layout.shardFile, { shard: `${name}.json` });

/** A shard's name and file. */
export interface ShardFile {
  name: string;
  file: OutputFile;
}

/** What a rebuild knows of the build before's hash tree (its manifest), to keep what did not change. */
export interface PreviousShards {
  /** every file but the list pages, with its SHA-256 */
  files: ReadonlyMap<string, string>;
  keys: ReadonlyMap<string, string>;
  /** whether this build's bodies served by URL are at the same paths as the build before's (none added or removed) */
  samePaths: boolean;
}

/** Every shard of a build, how many targets they name and how many distinct pieces (the root comes after, from the
 *  shards' hashes: hashTreeRootFile). */
export interface HashTreeShards {
  files: ShardFile[];
  targets: number;
  pieces: number;
}

export function hashTreeShardFiles(args: {
  layout: HashTreeLayout;
  /** a file of the working copy, as the build before wrote it (a shard this build patches) */
  readPrevious: (path: string) => string;
  lists: readonly PageList[];
  /** each list's pieces, in `lists` order */
  listPieces: readonly (readonly Piece[])[];
  /** each list's run as written (its SHA-256 and size), in `lists` order */
  runs: readonly BodyHash[];
  /** the bodies made of pieces (the catalog body), by request target */
  parts: ReadonlyMap<string, () => BodyPart[]>;
  small: SmallBodies;
  previous?: PreviousShards;
}): HashTreeShards {
  const { layout, small } = args;
  const pieces = new Set<string>();
  const lists = args.lists.map((list, i): ShardFile => {
    const name = listShardName(list.filter);
    const listPieces = args.listPieces[i]!;
    for (const p of listPieces) pieces.add(p.id);
    const entry = listEntry(args.runs[i]!, list.category, listPieces);
    return smallShard(layout, name, shardBody(name, [[listTarget(layout.basePath, list.category), entry]]));
  });
  const entryOf = (path: string, target: string) =>
    bodyEntry({ sha256: small.hashes.get(path)!, size: small.sizes.get(path)! }, args.parts.get(target)?.());
  const bodies = bodyShardFiles(layout, small, entryOf, args.readPrevious, args.previous);
  // The pieces of the bodies made of them are asked of those bodies (their shard may be kept, unread).
  for (const parts of args.parts.values())
    for (const part of parts()) if ("pieces" in part) for (const p of part.pieces) pieces.add(p.id);
  return { files: [...lists, ...bodies], targets: small.targets.size + lists.length, pieces: pieces.size };
}

/**
 * The shards of the bodies served by URL. When the build before had the same such bodies (none added, none removed:
 * every target stays in its bin), only the shards holding a body that changed are rendered, each its old body with
 * those entries replaced; the others are kept by their key. Else every one is rendered from the writers' hashes. A
 * shard's key is the SHA-1 of its body.
 */
function bodyShardFiles(
  layout: HashTreeLayout,
  small: SmallBodies,
  entryOf: (path: string, target: string) => string,
  readPrevious: (path: string) => string,
  previous: PreviousShards | undefined,
): ShardFile[] {
  const counts: Record<string, number> = {};
  for (const target of small.targets.values()) {
    const kind = kindOf(layout.basePath, target);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  if (previous?.samePaths) {
    const patched = patchBodyShards(layout, small, entryOf, readPrevious, previous, counts);
    if (patched) return patched;
  }
  const groups: ShardEntries = new Map();
  for (const [path, target] of small.targets)
    addEntry(groups, shardOf(layout.basePath, target, counts), target, entryOf(path, target));
  return Array.from(groups, ([name, entries]) => {
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return smallShard(layout, name, shardBody(name, entries));
  });
}

/** Shard name → its entries: a target and its entry (JSON text). */
type ShardEntries = Map<string, [target: string, entry: string][]>;

function addEntry(shards: ShardEntries, name: string, target: string, entry: string): void {
  const entries = shards.get(name);
  if (entries) entries.push([target, entry]);
  else shards.set(name, [[target, entry]]);
}

const smallShard = (layout: HashTreeLayout, name: string, body: string): ShardFile => ({
  name,
  file: { path: shardPath(layout, name), body, key: `shard ${sha1(body)}` },
});

/** The body shards patched (see bodyShardFiles), or undefined when the build before's cannot be (no key for one). */
function patchBodyShards(
  layout: HashTreeLayout,
  small: SmallBodies,
  entryOf: (path: string, target: string) => string,
  readPrevious: (path: string) => string,
  previous: PreviousShards,
  counts: Record<string, number>,
): ShardFile[] | undefined {
  const changed: ShardEntries = new Map();
  for (const [path, target] of small.targets)
    if (previous.files.get(path) !== small.hashes.get(path))
      addEntry(changed, shardOf(layout.basePath, target, counts), target, entryOf(path, target));
  const [before, after] = shardPath(layout, "\u0000").split("\u0000") as [string, string];
  const shards: ShardFile[] = [];
  for (const path of previous.files.keys()) {
    if (!path.startsWith(before) || !path.endsWith(after)) continue;
    const name = path.slice(before.length, path.length - after.length);
    if (!isSmallShard(name)) continue;
    const entries = changed.get(name);
    if (entries) {
      const old = parseShard(readPrevious(path));
      for (const [target, entry] of entries) {
        if (!old.has(target)) return undefined;
        old.set(target, entry);
      }
      shards.push(smallShard(layout, name, shardBody(name, old)));
      changed.delete(name);
      continue;
    }
    const key = previous.keys.get(path);
    if (key === undefined) return undefined;
    // Kept by the writer by its key, never read.
    shards.push({
      name,
      file: {
        path,
        key,
        get body(): string {
          throw new Error(`hash tree: ${path} is kept, not rendered`);
        },
      },
    });
  }
  // A changed body in a shard the build before did not have: not the same paths after all.
  return changed.size === 0 ? shards : undefined;
}

/** The root over the shards written: each by name, with the hash and size its writer recorded. */
export function hashTreeRootFile(
  layout: HashTreeLayout,
  shards: HashTreeShards,
  written: Omit<SmallBodies, "targets">,
): OutputFile {
  const rows = new Map<string, BodyHash>();
  for (const { name, file } of shards.files)
    rows.set(name, { sha256: written.hashes.get(file.path)!, size: written.sizes.get(file.path)! });
  return { path: layout.rootFile, body: rootBody(rows, shards.targets, shards.pieces) };
}
