// A second reader of the R2 bucket, written from docs/hosts/r2-bucket-format.md alone: it imports nothing from
// scripts/ (only Node's own modules), so what it reads is what the document says, not what the code does. It checks
// every rule the document states as it reads, and throws on the first one broken.
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";

/** An object's whole bytes by key, or null. */
export type GetObject = (key: string) => Uint8Array | null;

/** The formats this reader knows (absent = 1). */
const KNOWN_FORMATS = new Set([1, 2]);

export interface ReadFile {
  etag: string;
  size: number;
  /** the decoded body */
  body: Buffer;
  /** the stored (gzip) bytes' length */
  stored: number;
}

export interface ReadBuild {
  format: number;
  id: string;
  pointer: { build: string; previous: string | null; switchedAt: string; shards: [string, string][] } | null;
  files: Map<string, ReadFile>;
  /** the keys of the lists of `GET /software` (format 2), whose pages this reader leaves to the Worker */
  lists: string[];
  packs: string[];
  /** the path's shard by the lookup rule: the last whose first path is not after it */
  shardOf(path: string): string;
}

const hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const etagOf = (body: Uint8Array) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;

class FormatError extends Error {}
function must(condition: unknown, what: string): asserts condition {
  if (!condition) throw new FormatError(what);
}
const isInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isHex = (v: unknown, digits: number) => typeof v === "string" && new RegExp(`^[0-9a-f]{${digits}}$`).test(v);
const isTime = (v: unknown) => typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v);

function formatOf(object: { format?: unknown }, where: string): number {
  const format = object.format === undefined ? 1 : object.format;
  must(
    isInt(format) && KNOWN_FORMATS.has(format),
    `${where}: format ${String(object.format)} is not one this reader knows`,
  );
  return format as number;
}

function json(get: GetObject, key: string): Record<string, unknown> {
  const bytes = get(key);
  must(bytes, `${key} is missing`);
  const value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  must(value !== null && typeof value === "object" && !Array.isArray(value), `${key}: not a JSON object`);
  return value as Record<string, unknown>;
}

/** A pack read whole: its index by offset, checked against its name, its trailer and its layout. */
function readPack(get: GetObject, name: string) {
  const key = `packs/${name}`;
  const bytes = get(key);
  must(bytes, `${key} is missing`);
  must(hex(bytes).slice(0, 32) === name, `${key}: its bytes' SHA-256 does not begin with its name`);
  must(bytes.byteLength >= 12, `${key}: shorter than its trailer`);
  const trailer = new TextDecoder().decode(bytes.subarray(bytes.byteLength - 12));
  must(/^\d{12}$/.test(trailer), `${key}: the trailer ${JSON.stringify(trailer)} is not 12 digits`);
  const indexLength = Number(trailer);
  const indexAt = bytes.byteLength - 12 - indexLength;
  must(indexAt >= 0, `${key}: the index is longer than the pack`);
  const index = JSON.parse(new TextDecoder().decode(bytes.subarray(indexAt, indexAt + indexLength))) as unknown;
  must(Array.isArray(index), `${key}: the index is not an array`);
  const byOffset = new Map<number, { id: string; size: number; length: number }>();
  let next = 0;
  for (const entry of index) {
    must(Array.isArray(entry) && entry.length === 4, `${key}: an index entry is not [id, size, offset, length]`);
    const [id, size, offset, length] = entry as [unknown, unknown, unknown, unknown];
    must(typeof id === "string" && isInt(size) && isInt(offset) && isInt(length), `${key}: index entry types`);
    must(offset === next, `${key}: index entry at ${offset}, the previous body ended at ${next}`);
    byOffset.set(offset, { id, size, length });
    next = offset + length;
  }
  must(next === indexAt, `${key}: the bodies end at ${next}, the index starts at ${indexAt}`);
  return { bytes, byOffset };
}

/** The live build (or the build `id`), whole: every file's body decoded and checked. */
export function readBuild(get: GetObject, id?: string): ReadBuild {
  let pointer: ReadBuild["pointer"] = null;
  if (id === undefined) {
    const live = json(get, "live.json");
    formatOf(live, "live.json");
    must(isHex(live.build, 16), "live.json: build is not 16 hex digits");
    must(live.previous === null || isHex(live.previous, 16), "live.json: previous is neither null nor an id");
    must(isTime(live.switchedAt), "live.json: switchedAt is not an ISO time");
    must(Array.isArray(live.shards), "live.json: shards is not an array");
    pointer = live as unknown as NonNullable<ReadBuild["pointer"]>;
    id = pointer.build;
  }
  const recordKey = `builds/${id}/build.json`;
  const record = json(get, recordKey);
  const format = formatOf(record, recordKey);
  must(record.id === id, `${recordKey}: id ${String(record.id)}`);
  must(isTime(record.createdAt), `${recordKey}: createdAt is not an ISO time`);
  must(isInt(record.files) && isInt(record.bytes) && isInt(record.storedBytes), `${recordKey}: counts`);
  must(Array.isArray(record.shards) && Array.isArray(record.packs), `${recordKey}: shards and packs are arrays`);
  const refs = record.shards as [string, string, string, string[], number][];
  if (pointer)
    must(
      JSON.stringify(pointer.shards) === JSON.stringify(refs.map((r) => [r[0], r[1]])),
      "live.json: its shards are not its build's",
    );
  const union = [...new Set(refs.flatMap((r) => r[3]))].sort();
  must(JSON.stringify(record.packs) === JSON.stringify(union), `${recordKey}: packs is not its shards' packs, sorted`);

  const packs = new Map<string, ReturnType<typeof readPack>>();
  const packOf = (name: string) => packs.get(name) ?? packs.set(name, readPack(get, name)).get(name)!;
  const files = new Map<string, ReadFile>();
  const lists: string[] = [];
  let storedBytes = 0;
  for (const [i, ref] of refs.entries()) {
    must(Array.isArray(ref) && ref.length === 5, `${recordKey}: shard reference ${i} is not five long`);
    const [first, name, digest, refPacks, refStored] = ref;
    must(isHex(name, 32) && isHex(digest, 32) && isInt(refStored), `${recordKey}: shard reference ${i} types`);
    if (i > 0) must(refs[i - 1]![0] < first, `${recordKey}: shards not in order of their first path`);
    const key = `shards/${name}`;
    const stored = get(key);
    must(stored, `${key} is missing`);
    must(hex(stored).slice(0, 32) === name, `${key}: its bytes' SHA-256 does not begin with its name`);
    const shard = JSON.parse(gunzipSync(stored).toString("utf8")) as {
      packs: string[];
      files: [string, string, number, number, number, number][];
      lists?: unknown[][];
    };
    must(JSON.stringify(shard.packs) === JSON.stringify(refPacks), `${key}: packs differ from its reference's`);
    must(Array.isArray(shard.files), `${key}: files is not an array`);
    if (shard.lists !== undefined) {
      must(format >= 2, `${key}: lists in a format ${format} build`);
      for (const list of shard.lists) {
        must(Array.isArray(list) && typeof list[0] === "string", `${key}: a list without its key`);
        lists.push(list[0] as string);
      }
    }
    const heads = [...shard.files.map((f) => f[0]), ...(shard.lists ?? []).map((l) => l[0] as string)].sort();
    must(heads[0] === first, `${key}: its first path is not ${first}`);
    const bodies = new Map<string, number>();
    const lines: string[] = [];
    for (const [j, entry] of shard.files.entries()) {
      must(Array.isArray(entry) && entry.length === 6, `${key}: file entry ${j} is not six long`);
      const [path, etag, size, pack, offset, length] = entry;
      must(typeof path === "string" && typeof etag === "string", `${key}: file entry ${j} types`);
      must(isInt(size) && isInt(pack) && isInt(offset) && isInt(length), `${key}: file entry ${j} numbers`);
      if (j > 0) must(shard.files[j - 1]![0] < path, `${key}: ${path} out of order`);
      must(!files.has(path), `${key}: ${path} is in two shards`);
      must(pack < shard.packs.length, `${key}: ${path} names pack ${pack} of ${shard.packs.length}`);
      const { bytes, byOffset } = packOf(shard.packs[pack]!);
      const indexed = byOffset.get(offset);
      must(indexed?.id === etag, `${key}: ${path}'s body is not in its pack's index at ${offset}`);
      must(indexed.size === size && indexed.length === length, `${key}: ${path}: size or length not the index's`);
      const gz = bytes.subarray(offset, offset + length);
      const body = gunzipSync(gz);
      must(body.byteLength === size, `${path}: ${body.byteLength} bytes decoded, ${size} said`);
      must(etagOf(body) === etag, `${path}: the body's ETag is ${etagOf(body)}, ${etag} said`);
      files.set(path, { etag, size, body, stored: length });
      bodies.set(etag, length);
      lines.push(`${path}\t${etag}\t${size}\n`);
    }
    if (shard.files.length > 0 && shard.lists === undefined) {
      must(hex(Buffer.from(lines.join(""))).slice(0, 32) === digest, `${key}: its digest is not its entries'`);
      must([...bodies.values()].reduce((a, b) => a + b, 0) === refStored, `${key}: storedBytes`);
    }
    storedBytes += refStored;
  }
  must(storedBytes === record.storedBytes, `${recordKey}: storedBytes is not its shards'`);
  if (lists.length === 0) {
    must(record.files === files.size, `${recordKey}: ${String(record.files)} files, ${files.size} entries`);
    const bytes = [...files.values()].reduce((sum, f) => sum + f.size, 0);
    must(record.bytes === bytes, `${recordKey}: ${String(record.bytes)} bytes, the entries' sizes sum to ${bytes}`);
  }
  return {
    format,
    id: id!,
    pointer,
    files,
    lists,
    packs: union,
    shardOf(path) {
      let at = 0;
      for (const [i, ref] of refs.entries()) if (ref[0] <= path) at = i;
      return refs[at]![1];
    },
  };
}
