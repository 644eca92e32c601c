// The hash tree over every body a full host serves by URL (E2): shards that map request targets to the SHA-256 and
// size of their bodies, and a root that names the shards. Pure: the writer hands in what it hashed.
//
// Shards group targets by what changes together, so a small edit changes few of them (E3): tool details and rankings
// by a hash of the target into buckets of about 32 (a price edit touches one tool and its rankings), search answers
// into buckets of about 1,024 (no price is in them), each list's pages in runs of 16,384 in (limit, offset) order
// (a list changes only when a summary in it does), and the catalog-wide bodies in one.
import { ALL_FILTER, MAX_LIMIT } from "../api/route-table.ts";
import { sha256Hex } from "../api/sha256-node.ts";
import { pageCount } from "./software-pages.ts";

/** A body as the tree lists it. */
export interface BodyHash {
  sha256: string;
  size: number;
}

export const PAGES_PER_SHARD = 16_384;
const PER_BUCKET = { software: 32, best: 32, search: 1024 } as const;

/** The target a client sends for one page: every parameter explicit, in the route's order. */
export function pageTarget(basePath: string, category: string | null, limit: number, offset: number): string {
  return `${basePath}/software?limit=${limit}&offset=${offset}${category === null ? "" : `&category=${category}`}`;
}

/** The shards holding one list's pages, in order. A shard name ends with its number, so no two lists share one. */
export function listShardNames(filter: string, total: number, maxLimit = MAX_LIMIT): string[] {
  const prefix = filter === ALL_FILTER ? "list" : `category-${filter.slice(filter.indexOf("/") + 1)}`;
  return Array.from({ length: Math.ceil(pageCount(total, maxLimit) / PAGES_PER_SHARD) }, (_, k) => `${prefix}-${k}`);
}

const bucketOf = (target: string, buckets: number) => Number.parseInt(sha256Hex(target).slice(0, 8), 16) % buckets;
const powerOfTwoAtLeast = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

/** The shard of a body that is no list page, by its target; `counts` holds how many targets each kind has. */
export function shardOf(basePath: string, target: string, counts: Record<string, number>): string {
  const kind = target.startsWith(`${basePath}/software/`)
    ? "software"
    : target.startsWith(`${basePath}/best/`)
      ? "best"
      : target.startsWith(`${basePath}/search?`)
        ? "search"
        : undefined;
  if (!kind) return "catalog";
  return `${kind}-${bucketOf(target, powerOfTwoAtLeast(Math.ceil((counts[kind] ?? 0) / PER_BUCKET[kind])))}`;
}

export const kindOf = (basePath: string, target: string) => shardOf(basePath, target, {}).replace(/-\d+$/, "");

/** `{"data":{target:{sha256,size},…},"meta":{…}}`, targets in the order given. */
export function shardBody(name: string, entries: Iterable<[target: string, body: BodyHash]>): string {
  const parts: string[] = [];
  for (const [target, { sha256, size }] of entries)
    parts.push(`${JSON.stringify(target)}:{"sha256":"${sha256}","size":${size}}`);
  return `{"data":{${parts.join(",")}},"meta":{"shard":${JSON.stringify(name)},"targets":${parts.length}}}`;
}

/** The targets and hashes of a shard body (the writer reads an older build's to patch it). */
export function parseShard(body: string): Map<string, BodyHash> {
  return new Map(Object.entries((JSON.parse(body) as { data: Record<string, BodyHash> }).data));
}

/** The root: every shard by name, sorted, with the hash and size of its body. */
export function rootBody(shards: Map<string, BodyHash & { targets: number }>): string {
  const names = [...shards.keys()].sort();
  const data = names.map(
    (n) => `${JSON.stringify(n)}:{"sha256":"${shards.get(n)!.sha256}","size":${shards.get(n)!.size}}`,
  );
  const targets = names.reduce((sum, n) => sum + shards.get(n)!.targets, 0);
  return `{"data":{${data.join(",")}},"meta":{"shards":${names.length},"targets":${targets}}}`;
}
