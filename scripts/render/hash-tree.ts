// The hash tree over every body a full host serves by URL (E2): shards that map request targets to the SHA-256 and
// size of their bodies, and a root that names the shards. Pure: the writer hands in what it hashed.
//
// Shards group targets by what changes together, so a small edit changes few of them (E3): tool details and rankings
// by a hash of the target into buckets of about 32 (a price edit touches one tool and its rankings), search answers
// into buckets of about 1,024 (no price is in them), each list's pages in runs of 16,384 in (limit, offset) order
// (a list changes only when a summary in it does), and the catalog-wide bodies in one.

import { hash } from "node:crypto";
import { ALL_FILTER, MAX_LIMIT } from "../api/runtime/route-table.ts";
import { pageCount } from "./software-pages.ts";

/** A body as the tree lists it. */
export interface BodyHash {
  sha256: string;
  size: number;
}

export const PAGES_PER_SHARD = 16_384;
const PER_BUCKET = { software: 32, best: 32, search: 1024 } as const;

/** The target a client sends for one page: every parameter explicit, in the route's order. */
export function pageTarget(
  basePath: string,
  category: string | null,
  limit: number | string,
  offset: number | string,
): string {
  return `${basePath}/software?limit=${limit}&offset=${offset}${category === null ? "" : `&category=${category}`}`;
}

/** The shards holding one list's pages, in order. A shard name ends with its number, so no two lists share one. */
export function listShardNames(filter: string, total: number, maxLimit = MAX_LIMIT): string[] {
  const prefix = filter === ALL_FILTER ? "list" : `category-${filter.slice(filter.indexOf("/") + 1)}`;
  return Array.from({ length: Math.ceil(pageCount(total, maxLimit) / PAGES_PER_SHARD) }, (_, k) => `${prefix}-${k}`);
}

/** The SHA-256 of the target, its first four bytes as a number, modulo `buckets` (one call each, as sha256Hex). */
const bucketOf = (target: string, buckets: number) => hash("sha256", target, "buffer").readUInt32BE(0) % buckets;
const powerOfTwoAtLeast = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

type BucketedKind = keyof typeof PER_BUCKET;

/** Whether a shard holds bodies that are no list page (`software-3`, `search-0`, `catalog`), by its name. */
export const isSmallShard = (name: string): boolean => name === "catalog" || /^(software|best|search)-\d+$/.test(name);

/** What kind of body a target names: a bucketed kind, or "catalog" for the catalog-wide bodies. No hashing. */
export function kindOf(basePath: string, target: string): BucketedKind | "catalog" {
  if (target.startsWith(`${basePath}/software/`)) return "software";
  if (target.startsWith(`${basePath}/best/`)) return "best";
  if (target.startsWith(`${basePath}/search?`)) return "search";
  return "catalog";
}

/** The shard of a body that is no list page, by its target; `counts` holds how many targets each kind has. */
export function shardOf(basePath: string, target: string, counts: Record<string, number>): string {
  const kind = kindOf(basePath, target);
  if (kind === "catalog") return kind;
  return `${kind}-${bucketOf(target, powerOfTwoAtLeast(Math.ceil((counts[kind] ?? 0) / PER_BUCKET[kind])))}`;
}

/** `{"data":{target:{sha256,size},…},"meta":{…}}`, targets in the order given: a small shard, as one string. */
export function shardBody(name: string, entries: Iterable<[target: string, body: BodyHash]>): string {
  let data = "";
  let count = 0;
  for (const [target, { sha256, size }] of entries)
    data += `${count++ === 0 ? "" : ","}${JSON.stringify(target)}:{"sha256":"${sha256}","size":${size}}`;
  return `{"data":{${data}},"meta":{"shard":${JSON.stringify(name)},"targets":${count}}}`;
}

const HEX = Buffer.from("0123456789abcdef");

/**
 * A shard's body written straight into bytes, entry by entry: a shard of a list holds 16,384 pages, and strings per
 * entry joined at the end cost the build more in garbage collection than in writing.
 */
export class ShardBody {
  private bytes: Buffer;
  private at = 0;
  private count = 0;

  /** `expectedBytes`: room to reserve at once (a list's shard knows its entries' size within a few percent) */
  constructor(
    private readonly name: string,
    expectedBytes = 1 << 16,
  ) {
    this.bytes = Buffer.allocUnsafe(expectedBytes);
    this.text('{"data":{');
  }

  /** One entry: the target as JSON (quoted), its body's SHA-256 (hex, or 32 bytes of `digests` from `from`), size. */
  add(targetJson: string, sha256: string | { digests: Buffer; from: number }, size: number): void {
    this.text(`${this.count++ === 0 ? "" : ","}${targetJson}:{"sha256":"`);
    if (typeof sha256 === "string") this.text(sha256);
    else {
      this.room(64);
      for (let i = sha256.from; i < sha256.from + 32; i++) {
        const byte = sha256.digests[i]!;
        this.bytes[this.at++] = HEX[byte >> 4]!;
        this.bytes[this.at++] = HEX[byte & 15]!;
      }
    }
    this.room(32);
    this.at += this.bytes.write(`","size":${size}}`, this.at, "latin1");
  }

  finish(): Uint8Array {
    this.text(`},"meta":{"shard":${JSON.stringify(this.name)},"targets":${this.count}}}`);
    return this.bytes.subarray(0, this.at);
  }

  private text(s: string): void {
    this.room(Buffer.byteLength(s));
    this.at += this.bytes.write(s, this.at);
  }

  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + n));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }
}

/**
 * `JSON.stringify(pageTarget(…))` for every page of one list, cheaply: only the limit and the offset change, and
 * digits need no escaping.
 */
export function pageTargetJson(basePath: string, category: string | null): (limit: number, offset: number) => string {
  const quoted = JSON.stringify(pageTarget(basePath, category, "\u0001", "\u0002"));
  const [head, rest] = quoted.split(JSON.stringify("\u0001").slice(1, -1)) as [string, string];
  const [middle, tail] = rest.split(JSON.stringify("\u0002").slice(1, -1)) as [string, string];
  return (limit, offset) => `${head}${limit}${middle}${offset}${tail}`;
}

/** One entry of a shard as this module writes it: the target as JSON, its body's SHA-256 and size. */
const SHARD_ENTRY = /"((?:[^"\\]|\\.)*)":\{"sha256":"([0-9a-f]{64})","size":(\d+)\}/g;

/**
 * Calls `visit` with each target of a shard body this module wrote, in order, and its body's hash and size: read
 * straight from the text, without an object per entry (a build's shards hold 280,000 targets at n = 1,000).
 */
export function eachShardEntry(body: string, visit: (target: string, sha256: string, size: number) => void): void {
  const metaAt = body.lastIndexOf(',"meta":');
  let count = 0;
  for (const m of body.slice(0, metaAt).matchAll(SHARD_ENTRY)) {
    const quoted = m[1]!;
    visit(quoted.includes("\\") ? (JSON.parse(`"${quoted}"`) as string) : quoted, m[2]!, Number(m[3]));
    count++;
  }
  // Its meta counts the entries: a body this module did not write cannot pass for one with fewer targets.
  const meta = metaAt < 0 ? undefined : (JSON.parse(body.slice(metaAt + 8, -1)) as { targets?: unknown });
  if (meta?.targets !== count) throw new Error(`a hash tree shard not as the build writes it (${count} entries read)`);
}

/** The targets and hashes of a shard body (the writer reads an older build's to patch it). */
export function parseShard(body: string): Map<string, BodyHash> {
  const entries = new Map<string, BodyHash>();
  eachShardEntry(body, (target, sha256, size) => entries.set(target, { sha256, size }));
  return entries;
}

/** The root: every shard by name, sorted, with the hash and size of its body; `targets` in them all. */
export function rootBody(shards: Map<string, BodyHash>, targets: number): string {
  const names = [...shards.keys()].sort();
  const data = names.map(
    (n) => `${JSON.stringify(n)}:{"sha256":"${shards.get(n)!.sha256}","size":${shards.get(n)!.size}}`,
  );
  return `{"data":{${data.join(",")}},"meta":{"shards":${names.length},"targets":${targets}}}`;
}
