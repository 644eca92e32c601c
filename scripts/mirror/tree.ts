// The hash tree of a deployed API (E2, format 2) as the mirror reads it: the root names the shards; a shard names
// bodies served by URL (`{sha256, size}`, the catalog body with its `parts`) or, for a list, its run (`{sha256, size,
// category, total, pieces}`). Pieces are fetched by id and checked by it. Anything else is refused in one line: the
// mirror writes nothing it could not check.
import { UserError } from "../cli/command.ts";

/** The format this mirror reads (render/hash-tree.ts writes it). */
export const TREE_FORMAT = 2;

export interface Hashed {
  sha256: string;
  size: number;
}

/** A piece as the tree names it: its id (the SHA-256 of its body, hex), its items, its body's bytes. */
export type PieceRow = [id: string, items: number, size: number];

/** A part of a body made of pieces: text as it is, or pieces' inner bytes joined by `,`. */
export type Part = { text: string } | { pieces: PieceRow[] };

export interface BodyEntry extends Hashed {
  parts?: Part[];
}

export interface ListEntry extends Hashed {
  category: string | null;
  total: number;
  pieces: PieceRow[];
}

export interface Root {
  shards: Record<string, Hashed>;
  targets: number;
}

export interface Shard {
  bodies: Map<string, BodyEntry>;
  lists: Map<string, ListEntry>;
}

const SHA256 = /^[0-9a-f]{64}$/;
const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const isHashed = (e: unknown): e is Hashed =>
  typeof e === "object" && e !== null && SHA256.test(String((e as Hashed).sha256)) && isCount((e as Hashed).size);
const isPieceRow = (p: unknown): p is PieceRow =>
  Array.isArray(p) && p.length === 3 && SHA256.test(String(p[0])) && isCount(p[1]) && isCount(p[2]);
const isPart = (p: unknown): p is Part =>
  typeof p === "object" &&
  p !== null &&
  (typeof (p as { text?: unknown }).text === "string" ||
    (Array.isArray((p as { pieces?: unknown }).pieces) && (p as { pieces: unknown[] }).pieces.every(isPieceRow)));

function parse(bytes: Uint8Array, what: string): { data: Record<string, unknown>; meta: Record<string, unknown> } {
  try {
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { data?: unknown; meta?: unknown };
    if (body.data && typeof body.data === "object" && body.meta && typeof body.meta === "object")
      return body as { data: Record<string, unknown>; meta: Record<string, unknown> };
  } catch {}
  throw new UserError(`${what} is not a hash tree listing ({ "data": { … }, "meta": { … } })`);
}

function formatOf(meta: Record<string, unknown>, what: string): void {
  if (meta.format !== TREE_FORMAT)
    throw new UserError(
      `${what} is of the hash tree's format ${JSON.stringify(meta.format ?? 1)}; this version mirrors format ${TREE_FORMAT}: ` +
        "mirror with the version of this project the API was built with",
    );
}

/** The root: its shards by name. */
export function readRoot(bytes: Uint8Array, what: string): Root {
  const { data, meta } = parse(bytes, what);
  formatOf(meta, what);
  for (const [name, entry] of Object.entries(data))
    if (!/^[a-z0-9-]+$/.test(name) || !isHashed(entry)) throw new UserError(`${what}: its shard ${name} is not one`);
  return { shards: data as Record<string, Hashed>, targets: isCount(meta.targets) ? meta.targets : 0 };
}

/** A shard: its bodies and its lists, each entry checked for its shape. */
export function readShard(bytes: Uint8Array, what: string): Shard {
  const { data, meta } = parse(bytes, what);
  formatOf(meta, what);
  const shard: Shard = { bodies: new Map(), lists: new Map() };
  for (const [target, entry] of Object.entries(data)) {
    const e = entry as Partial<ListEntry & BodyEntry>;
    if (!isHashed(entry)) throw new UserError(`${what}: its entry ${JSON.stringify(target.slice(0, 200))} is not one`);
    if (e.pieces !== undefined) {
      if (!Array.isArray(e.pieces) || !e.pieces.every(isPieceRow) || !isCount(e.total))
        throw new UserError(`${what}: the list ${JSON.stringify(target.slice(0, 200))} is not one`);
      if (e.category !== null && typeof e.category !== "string")
        throw new UserError(`${what}: the list ${JSON.stringify(target.slice(0, 200))} has no category`);
      shard.lists.set(target, e as ListEntry);
    } else {
      if (e.parts !== undefined && (!Array.isArray(e.parts) || !e.parts.every(isPart)))
        throw new UserError(`${what}: the parts of ${JSON.stringify(target.slice(0, 200))} are not parts`);
      shard.bodies.set(target, e as BodyEntry);
    }
  }
  return shard;
}
