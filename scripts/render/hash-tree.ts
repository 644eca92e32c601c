// The hash tree over what the catalog holds (E2), format 2: shards that map request targets to the SHA-256 and size
// of their bodies, one shard per list naming its pieces, and a root that names the shards. No list page is named: a
// page is a window of its list (L1), and the list is its pieces. Pure: the writer hands in what it hashed.
//
// Shards group targets by what changes together, so a small edit changes few of them (E3): tool details and rankings
// by a hash of the target into bins of about 32 (a price edit touches one tool and its rankings), search answers
// into bins of about 128 (an inserted tool changes the answers of its names' prefixes, spread over a few bins), the
// catalog-wide bodies in one (`catalog`, the catalog body's entry naming its parts), and each list in its own
// (`list`, `category-<slug>`): its run's hash and size, its category and total, and its pieces.

import { hash } from "node:crypto";
import { ALL_FILTER } from "../api/runtime/route-table.ts";
import type { BodyPart } from "./catalog-body.ts";
import type { Piece } from "./pieces.ts";

/** Raised when the shape of the root or of a shard changes; every shard and the root carry it in their meta. */
export const HASH_TREE_FORMAT = 2;

/** A body as the tree lists it. */
export interface BodyHash {
  sha256: string;
  size: number;
}

/** Targets to a bin, by kind: a bin holds about this many. */
export const PER_BIN = { software: 32, best: 32, search: 128 } as const;

/** The shard of one list, by its filter (`all`, `category/seo`): `list`, `category-seo`. */
export const listShardName = (filter: string): string =>
  filter === ALL_FILTER ? "list" : `category-${filter.slice(filter.indexOf("/") + 1)}`;

/** The target a list's entry names: the list without its paging (`/v1/software`, `/v1/software?category=seo`). */
export const listTarget = (basePath: string, category: string | null): string =>
  `${basePath}/software${category === null ? "" : `?category=${category}`}`;

/** The SHA-256 of the target, its first four bytes as a number, modulo `bins` (one call each, as sha256Hex). */
const binOf = (target: string, bins: number) => hash("sha256", target, "buffer").readUInt32BE(0) % bins;
const powerOfTwoAtLeast = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

type BinnedKind = keyof typeof PER_BIN;

/** Whether a shard holds bodies served by URL (`software-3`, `search-0`, `catalog`), not a list, by its name. */
export const isSmallShard = (name: string): boolean => name === "catalog" || /^(software|best|search)-\d+$/.test(name);

/** What kind of body a target names: a binned kind, or "catalog" for the catalog-wide bodies. No hashing. */
export function kindOf(basePath: string, target: string): BinnedKind | "catalog" {
  if (target.startsWith(`${basePath}/software/`)) return "software";
  if (target.startsWith(`${basePath}/best/`)) return "best";
  if (target.startsWith(`${basePath}/search?`)) return "search";
  return "catalog";
}

/** The shard of a body served by URL, by its target; `counts` holds how many targets each kind has. */
export function shardOf(basePath: string, target: string, counts: Record<string, number>): string {
  const kind = kindOf(basePath, target);
  if (kind === "catalog") return kind;
  return `${kind}-${binOf(target, powerOfTwoAtLeast(Math.ceil((counts[kind] ?? 0) / PER_BIN[kind])))}`;
}

/** A piece as the tree names it: `[id, items, size]`. */
type PieceRow = [id: string, items: number, size: number];
const pieceRows = (pieces: readonly Piece[]): PieceRow[] => pieces.map((p) => [p.id, p.items, p.size]);

/** The entry of a body served by URL: `{"sha256","size"}`, and `parts` for a body made of pieces. */
export function bodyEntry(body: BodyHash, parts?: readonly BodyPart[]): string {
  const entry: Record<string, unknown> = { sha256: body.sha256, size: body.size };
  if (parts) entry.parts = parts.map((p) => ("text" in p ? { text: p.text } : { pieces: pieceRows(p.pieces) }));
  return JSON.stringify(entry);
}

/** A list's entry: its run's SHA-256 and size, its meta.category and total, its pieces in order. */
export function listEntry(run: BodyHash, category: string | null, pieces: readonly Piece[]): string {
  const total = pieces.reduce((n, p) => n + p.items, 0);
  return JSON.stringify({ sha256: run.sha256, size: run.size, category, total, pieces: pieceRows(pieces) });
}

/** `{"data":{target:entry,…},"meta":{"format":2,"shard":name,"targets":n}}`, entries (JSON text) in the order given. */
export function shardBody(name: string, entries: Iterable<[target: string, entry: string]>): string {
  let data = "";
  let count = 0;
  for (const [target, entry] of entries) data += `${count++ === 0 ? "" : ","}${JSON.stringify(target)}:${entry}`;
  return `{"data":{${data}},"meta":{"format":${HASH_TREE_FORMAT},"shard":${JSON.stringify(name)},"targets":${count}}}`;
}

interface ShardText {
  data: Record<string, BodyHash & { pieces?: unknown; parts?: unknown }>;
  meta: { format?: number; shard?: string; targets?: number };
}

/** A shard body read back, refused when it is not one this module writes. */
function readShard(body: string): ShardText {
  const shard = JSON.parse(body) as ShardText;
  if (
    shard.meta?.format !== HASH_TREE_FORMAT ||
    shard.meta.targets !== Object.keys(shard.data ?? {}).length ||
    Object.values(shard.data).some((e) => !/^[0-9a-f]{64}$/.test(e.sha256) || !Number.isInteger(e.size))
  )
    throw new Error("a hash tree shard not as the build writes it");
  return shard;
}

/**
 * Calls `visit` with each body served by URL that a shard names, in order, with its SHA-256 and size; a list's entry
 * (a run, no body of its own) is left out.
 */
export function eachShardEntry(body: string, visit: (target: string, sha256: string, size: number) => void): void {
  for (const [target, entry] of Object.entries(readShard(body).data))
    if (entry.pieces === undefined) visit(target, entry.sha256, entry.size);
}

/** A shard's entries as JSON texts, by target (the writer patches an older build's small shards with them). */
export function parseShard(body: string): Map<string, string> {
  return new Map(Object.entries(readShard(body).data).map(([target, entry]) => [target, JSON.stringify(entry)]));
}

/**
 * The root: every shard by name, sorted, with the hash and size of its body; `targets` the request targets in them
 * all (bodies and lists), `pieces` the distinct pieces they name.
 */
export function rootBody(shards: Map<string, BodyHash>, targets: number, pieces: number): string {
  const names = [...shards.keys()].sort();
  const data = names.map(
    (n) => `${JSON.stringify(n)}:{"sha256":"${shards.get(n)!.sha256}","size":${shards.get(n)!.size}}`,
  );
  return (
    `{"data":{${data.join(",")}},` +
    `"meta":{"format":${HASH_TREE_FORMAT},"shards":${names.length},"targets":${targets},"pieces":${pieces}}}`
  );
}
