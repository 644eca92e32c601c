// Renders the hash tree (E2) of a build, after its bodies: shards from the hashes the writers computed, then the root
// from the shards' own hashes. A list whose items did not change keeps its shards unread (their key is the list's);
// a list partly rewritten patches its old shards (read through the writer) with the pages hashed now; everything else
// is rendered anew. Nothing here writes: io/write-output.ts writes these files as they render.
import { fill } from "../api/runtime/route-table.ts";
import { sha1 } from "../launcher/file-hashes.cjs";
import {
  type BodyHash,
  isSmallShard,
  kindOf,
  listShardNames,
  PAGES_PER_SHARD,
  pageTarget,
  pageTargetJson,
  parseShard,
  rootBody,
  ShardBody,
  shardBody,
  shardOf,
} from "./hash-tree.ts";
import type { OutputFile } from "./output.ts";
import { type PageDigests, type PageList, pageAt, pageCount } from "./software-pages.ts";

export interface HashTreeLayout {
  basePath: string;
  /** the root's file, `v1/sync/index.json` */
  rootFile: string;
  /** a shard's file, `v1/sync/{shard}` where shard is `name.json` */
  shardFile: string;
  /** a piece's file, `v1/sync/pieces/{piece}` where piece is `<id>.json` */
  pieceFile: string;
}

/** What the small files' writer knows of each body with a target. */
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
  /** whether this build's small bodies are at the same paths as the build before's (none added, none removed) */
  samePaths: boolean;
}

/**
 * Every shard file of the build, and how many targets they hold (the root comes after, from their hashes:
 * hashTreeRootFile).
 */
export function hashTreeShardFiles(args: {
  layout: HashTreeLayout;
  /** a file of the working copy, as the build before wrote it (a shard this build patches) */
  readPrevious: (path: string) => string;
  lists: PageList[];
  maxLimit: number;
  /** per list: the pages this build hashed (its others are in the shards of the build before) */
  pages: (PageDigests | undefined)[];
  small: SmallBodies;
  previous?: PreviousShards;
}): { files: ShardFile[]; targets: number } {
  const { layout, lists, small } = args;
  const files: ShardFile[] = [];
  let targets = small.targets.size;
  lists.forEach((list, i) => {
    const total = list.items.length;
    const count = pageCount(total, args.maxLimit);
    const hashed = args.pages[i];
    // The list's identity: the same items in the same order are the same pages.
    const key = `${layout.basePath} ${list.category} ${sha1(list.items.join("\n"))}`;
    const targetJson = pageTargetJson(layout.basePath, list.category);
    listShardNames(list.filter, total, args.maxLimit).forEach((name, k) => {
      const path = shardPath(layout, name);
      const first = k * PAGES_PER_SHARD;
      const end = Math.min(count, first + PAGES_PER_SHARD);
      const render = () => {
        let old: Map<string, BodyHash> | undefined;
        const shard = new ShardBody(name, (end - first) * (targetJson(100, total).length + 90));
        for (let index = first; index < end; index++) {
          const { limit, offset } = pageAt(total, index);
          const size = hashed?.sizes[index] ?? 0;
          if (size > 0) {
            shard.add(targetJson(limit, offset), { digests: hashed!.digests, from: index * 32 }, size);
            continue;
          }
          // A page this build did not hash is as the build before wrote it, in the shard it wrote.
          old ??= parseShard(args.readPrevious(path));
          const target = pageTarget(layout.basePath, list.category, limit, offset);
          const body = old.get(target);
          if (!body) throw new Error(`hash tree: no hash for ${target}`);
          shard.add(targetJson(limit, offset), body.sha256, body.size);
        }
        return shard.finish();
      };
      // Rendered when the writer reads it, and not kept: a shard's bytes are garbage once written.
      const file: OutputFile = {
        path,
        key: `${key} ${k}`,
        get body() {
          return render();
        },
      };
      files.push({ name, file });
      targets += end - first;
    });
  });

  return { files: [...files, ...smallShardFiles(layout, small, args.readPrevious, args.previous)], targets };
}

/**
 * The shards of the bodies that are no list page. When the build before had the same small bodies (none added, none
 * removed: every target stays in its bucket), only the shards holding a body that changed are rendered, each its
 * old body with those entries replaced; the others are kept by their key. Else every one is rendered from the
 * writer's hashes. A shard's key is the SHA-1 of its body.
 */
function smallShardFiles(
  layout: HashTreeLayout,
  small: SmallBodies,
  readPrevious: (path: string) => string,
  previous: PreviousShards | undefined,
): ShardFile[] {
  const counts: Record<string, number> = {};
  for (const target of small.targets.values()) {
    const kind = kindOf(layout.basePath, target);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  if (previous?.samePaths) {
    const patched = patchSmallShards(layout, small, readPrevious, previous, counts);
    if (patched) return patched;
  }
  const groups: ShardEntries = new Map();
  for (const [path, target] of small.targets)
    addEntry(groups, shardOf(layout.basePath, target, counts), target, small.hashes.get(path)!, small.sizes.get(path)!);
  return Array.from(groups, ([name, entries]) => {
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return smallShard(layout, name, shardBody(name, entries));
  });
}

/** Shard name → its entries: a target and its body's hash and size. */
type ShardEntries = Map<string, [target: string, body: BodyHash][]>;

function addEntry(shards: ShardEntries, name: string, target: string, sha256: string, size: number): void {
  const entry: [string, BodyHash] = [target, { sha256, size }];
  const entries = shards.get(name);
  if (entries) entries.push(entry);
  else shards.set(name, [entry]);
}

const smallShard = (layout: HashTreeLayout, name: string, body: string): ShardFile => ({
  name,
  file: { path: shardPath(layout, name), body, key: `shard ${sha1(body)}` },
});

/** The small shards patched (see smallShardFiles), or undefined when the build before's cannot be (no key for one). */
function patchSmallShards(
  layout: HashTreeLayout,
  small: SmallBodies,
  readPrevious: (path: string) => string,
  previous: PreviousShards,
  counts: Record<string, number>,
): ShardFile[] | undefined {
  const changed: ShardEntries = new Map();
  for (const [path, target] of small.targets) {
    const sha256 = small.hashes.get(path)!;
    if (previous.files.get(path) !== sha256)
      addEntry(changed, shardOf(layout.basePath, target, counts), target, sha256, small.sizes.get(path)!);
  }
  const [before, after] = shardPath(layout, "\u0000").split("\u0000") as [string, string];
  const shards: ShardFile[] = [];
  for (const path of previous.files.keys()) {
    if (!path.startsWith(before) || !path.endsWith(after)) continue;
    const name = path.slice(before.length, path.length - after.length);
    if (!isSmallShard(name)) continue;
    const entries = changed.get(name);
    if (entries) {
      const old = parseShard(readPrevious(path));
      for (const [target, body] of entries) {
        if (!old.has(target)) return undefined;
        old.set(target, body);
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
  shards: { files: ShardFile[]; targets: number },
  written: Omit<SmallBodies, "targets">,
): OutputFile {
  const rows = new Map<string, BodyHash>();
  for (const { name, file } of shards.files)
    rows.set(name, { sha256: written.hashes.get(file.path)!, size: written.sizes.get(file.path)! });
  return { path: layout.rootFile, body: rootBody(rows, shards.targets) };
}
