// Renders the hash tree (E2) of a build, after its bodies: shards from the hashes the writers computed, then the root
// from the shards' own hashes. A list whose items did not change keeps its shards unread (their key is the list's);
// a list partly rewritten patches its old shards (read through the writer) with the pages hashed now; everything else
// is rendered anew. Nothing here writes: io/write-output.ts writes these files as they render.
import { fill } from "../api/runtime/route-table.ts";
import { sha1 } from "../cli/file-hashes.mjs";
import type { OutputFile } from "./output.ts";
import { type PageDigests, type PageList, pageAt, pageCount } from "./software-pages.ts";
import {
  type BodyHash,
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
} from "./sync.ts";

export interface SyncLayout {
  basePath: string;
  /** the root's file, `v1/sync/index.json` */
  rootFile: string;
  /** a shard's file, `v1/sync/{shard}` where shard is `name.json` */
  shardFile: string;
}

/** What the small files' writer knows of each body with a target. */
export interface SmallBodies {
  hashes: ReadonlyMap<string, string>;
  sizes: ReadonlyMap<string, number>;
  targets: ReadonlyMap<string, string>;
}

const shardPath = (layout: SyncLayout, name: string) => fill(layout.shardFile, { shard: `${name}.json` });

/** A shard's file and how many targets it holds. */
export interface ShardFile {
  name: string;
  file: OutputFile;
  targets: number;
}

/** Every shard file of the build (the root comes after, from their hashes: syncRootFile). */
export function syncShardFiles(args: {
  layout: SyncLayout;
  /** a file of the working copy, as the build before wrote it (a shard this build patches) */
  readPrevious: (path: string) => string;
  lists: PageList[];
  maxLimit: number;
  /** per list: the pages this build hashed (its others are in the shards of the build before) */
  pages: (PageDigests | undefined)[];
  small: SmallBodies;
}): ShardFile[] {
  const { layout, lists, small } = args;
  const files: ShardFile[] = [];
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
      files.push({ name, file, targets: end - first });
    });
  });

  const bodies = [...small.targets].map(([path, target]) => ({ path, target }));
  const counts: Record<string, number> = {};
  for (const { target } of bodies) {
    const kind = kindOf(layout.basePath, target);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  const groups = new Map<string, [string, BodyHash][]>();
  for (const { path, target } of bodies) {
    const name = shardOf(layout.basePath, target, counts);
    const entry: [string, BodyHash] = [target, { sha256: small.hashes.get(path)!, size: small.sizes.get(path)! }];
    const group = groups.get(name);
    if (group) group.push(entry);
    else groups.set(name, [entry]);
  }
  for (const [name, entries] of groups) {
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    files.push({
      name,
      file: { path: shardPath(layout, name), body: shardBody(name, entries) },
      targets: entries.length,
    });
  }
  return files;
}

/** The root over the shards written: each by name, with the hash and size its writer recorded. */
export function syncRootFile(
  layout: SyncLayout,
  shards: ShardFile[],
  written: Omit<SmallBodies, "targets">,
): OutputFile {
  const rows = new Map<string, BodyHash & { targets: number }>();
  for (const { name, file, targets } of shards)
    rows.set(name, { sha256: written.hashes.get(file.path)!, size: written.sizes.get(file.path)!, targets });
  return { path: layout.rootFile, body: rootBody(rows) };
}
