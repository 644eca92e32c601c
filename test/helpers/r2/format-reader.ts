// A second reader of the R2 bucket, written from docs/hosts/r2-bucket-format.md alone: it imports nothing from
// scripts/ (only Node's own modules), so what it reads is what the document says, not what the code does. It checks
// every rule the document states as it reads, and throws on the first one broken.
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";

/** An object's whole bytes by key, or null. */
export type GetObject = (key: string) => Uint8Array | null;

/** The formats this reader knows. */
const KNOWN_FORMATS = new Set([3]);
/** The largest page limit (the document's Pages: 1 to 100). */
export const MAX_PAGE_LIMIT = 100;

export interface ReadFile {
  etag: string;
  size: number;
  /** the decoded body */
  body: Buffer;
  coding: "gzip" | "identity" | "parts";
}

export interface ReadList {
  key: string;
  id: string;
  category: string | null;
  /** its items, in order */
  items: Buffer[];
  /** its pieces' ids, in order */
  pieces: string[];
  /** page (limit, offset) as the document's Pages rule makes it, or null when it is no page */
  page(limit: number, offset: number): Buffer | null;
}

export interface ReadBuild {
  format: number;
  id: string;
  pointer: { build: string; previous: string | null; switchedAt: string; shards: [string, string][] } | null;
  files: Map<string, ReadFile>;
  lists: Map<string, ReadList>;
  packs: string[];
  /** the shard references of the record: [first key, name, digest, packs, storedBytes] */
  shards: [string, string, string, string[], number][];
  /** the key's shard by the lookup rule: the last whose first key is not after it */
  shardOf(key: string): string;
}

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
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
  must(sha256(bytes).slice(0, 32) === name, `${key}: its bytes' SHA-256 does not begin with its name`);
  must(bytes.byteLength >= 12, `${key}: shorter than its trailer`);
  const trailer = new TextDecoder().decode(bytes.subarray(bytes.byteLength - 12));
  must(/^\d{12}$/.test(trailer), `${key}: the trailer ${JSON.stringify(trailer)} is not 12 digits`);
  const indexLength = Number(trailer);
  const indexAt = bytes.byteLength - 12 - indexLength;
  must(indexAt >= 0, `${key}: the index is longer than the pack`);
  const index = JSON.parse(new TextDecoder().decode(bytes.subarray(indexAt, indexAt + indexLength))) as unknown;
  must(Array.isArray(index), `${key}: the index is not an array`);
  const byOffset = new Map<number, { etag: string; size: number; length: number; coding: "gzip" | "identity" }>();
  let next = 0;
  for (const entry of index) {
    must(Array.isArray(entry) && (entry.length === 4 || entry.length === 5), `${key}: an index entry of 4 or 5`);
    const [etag, size, offset, length, coding] = entry as [unknown, unknown, unknown, unknown, unknown];
    must(typeof etag === "string" && isInt(size) && isInt(offset) && isInt(length), `${key}: index entry types`);
    must(coding === undefined || (coding === "identity" && length === size), `${key}: a fifth element but identity`);
    must(offset === next, `${key}: index entry at ${offset}, the previous body ended at ${next}`);
    byOffset.set(offset, { etag, size, length, coding: coding === "identity" ? "identity" : "gzip" });
    next = offset + length;
  }
  must(next === indexAt, `${key}: the bodies end at ${next}, the index starts at ${indexAt}`);
  return { bytes, byOffset };
}

/** The live build (or the build `id`), whole: every file's body decoded and checked, every list's items. */
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
  must(isInt(record.files) && isInt(record.lists) && isInt(record.bytes) && isInt(record.storedBytes), "counts");
  must(Array.isArray(record.shards) && Array.isArray(record.packs), `${recordKey}: shards and packs are arrays`);
  const refs = record.shards as ReadBuild["shards"];
  if (pointer)
    must(
      JSON.stringify(pointer.shards) === JSON.stringify(refs.map((r) => [r[0], r[1]])),
      "live.json: its shards are not its build's",
    );
  const union = [...new Set(refs.flatMap((r) => r[3]))].sort();
  must(JSON.stringify(record.packs) === JSON.stringify(union), `${recordKey}: packs is not its shards' packs, sorted`);

  const packs = new Map<string, ReturnType<typeof readPack>>();
  const packOf = (name: string) => packs.get(name) ?? packs.set(name, readPack(get, name)).get(name)!;
  /** The stored bytes at a place, checked against the pack's index. */
  const storedAt = (where: string, pack: string, offset: number, length: number, coding: "gzip" | "identity") => {
    const { bytes, byOffset } = packOf(pack);
    const indexed = byOffset.get(offset);
    must(indexed, `${where}: nothing in pack ${pack}'s index at ${offset}`);
    must(indexed.length === length && indexed.coding === coding, `${where}: length or coding not the index's`);
    const stored = Buffer.from(bytes.subarray(offset, offset + length));
    const body = coding === "gzip" ? gunzipSync(stored) : stored;
    must(indexed.size === body.byteLength && etagOf(body) === indexed.etag, `${where}: not the index's body`);
    return body;
  };
  const files = new Map<string, ReadFile>();
  const lists = new Map<string, ReadList>();
  const lines: string[] = [];
  let storedBytes = 0;
  let decodedBytes = 0;
  for (const [i, ref] of refs.entries()) {
    must(Array.isArray(ref) && ref.length === 5, `${recordKey}: shard reference ${i} is not five long`);
    const [first, name, digest, refPacks, refStored] = ref;
    must(isHex(name, 32) && isHex(digest, 32) && isInt(refStored), `${recordKey}: shard reference ${i} types`);
    if (i > 0) must(refs[i - 1]![0] < first, `${recordKey}: shards not in order of their first key`);
    const key = `shards/${name}`;
    const stored = get(key);
    must(stored, `${key} is missing`);
    must(sha256(stored).slice(0, 32) === name, `${key}: its bytes' SHA-256 does not begin with its name`);
    const shard = JSON.parse(gunzipSync(stored).toString("utf8")) as {
      packs: string[];
      files: [string, string, number, number, number, number, string][];
      lists?: [string, string, string | null, [string, number, number, number[]][]][];
      parted?: [string, string, number, (string | [string, number, number, number, number][])[]][];
    };
    must(JSON.stringify(shard.packs) === JSON.stringify(refPacks), `${key}: packs differ from its reference's`);
    must(Array.isArray(shard.files), `${key}: files is not an array`);
    const places = new Map<string, number>();
    const place = (pack: number, offset: number, length: number) => {
      must(isInt(pack) && pack < shard.packs.length && isInt(offset) && isInt(length), `${key}: a place's numbers`);
      places.set(`${shard.packs[pack]}@${offset}`, length);
      return shard.packs[pack]!;
    };
    const shardLines = new Map<string, string>();
    const sorted = (entries: { 0: string }[], what: string) => {
      for (let j = 1; j < entries.length; j++)
        must(entries[j - 1]![0] < entries[j]![0], `${key}: ${what} out of order`);
    };
    sorted(shard.files, "files");
    sorted(shard.lists ?? [], "lists");
    sorted(shard.parted ?? [], "parted");

    for (const [j, entry] of shard.files.entries()) {
      must(Array.isArray(entry) && entry.length === 7, `${key}: file entry ${j} is not seven long`);
      const [path, etag, size, pack, offset, length, coding] = entry;
      must(typeof path === "string" && typeof etag === "string" && isInt(size), `${key}: file entry ${j} types`);
      must(coding === "gzip" || coding === "identity", `${key}: ${path}: coding ${coding}`);
      must(coding === "gzip" || length === size, `${key}: ${path}: an identity body's length is not its size`);
      const body = storedAt(path, place(pack, offset, length), offset, length, coding);
      must(body.byteLength === size, `${path}: ${body.byteLength} bytes decoded, ${size} said`);
      must(etagOf(body) === etag, `${path}: the body's ETag is ${etagOf(body)}, ${etag} said`);
      must(!files.has(path) && !shardLines.has(path), `${path} is named twice`);
      files.set(path, { etag, size, body, coding });
      shardLines.set(path, `${path}\t${etag}\t${size}\n`);
      decodedBytes += size;
    }
    for (const [path, etag, size, parts] of shard.parted ?? []) {
      const chunks: Buffer[] = [];
      for (const part of parts) {
        if (typeof part === "string") {
          chunks.push(Buffer.from(part, "utf8"));
          continue;
        }
        must(Array.isArray(part) && part.length > 0, `${path}: a pieces part without pieces`);
        for (const [k, [pieceId, pack, offset, length, pieceSize]] of part.entries()) {
          const body = storedAt(path, place(pack, offset, length), offset, length, "gzip");
          must(body.byteLength === pieceSize && sha256(body) === pieceId, `${path}: piece ${pieceId}`);
          must(body[0] === 0x5b && body[body.byteLength - 1] === 0x5d, `${path}: piece ${pieceId} is no [ … ]`);
          if (k > 0) chunks.push(Buffer.from(","));
          chunks.push(body.subarray(1, -1));
        }
      }
      const body = Buffer.concat(chunks);
      must(body.byteLength === size && etagOf(body) === etag, `${path}: its parts are not its body`);
      must(!files.has(path) && !shardLines.has(path), `${path} is named twice`);
      files.set(path, { etag, size, body, coding: "parts" });
      shardLines.set(path, `${path}\t${etag}\t${size}\n`);
      decodedBytes += size;
    }
    for (const [listKey, listId, category, pieces] of shard.lists ?? []) {
      must(typeof listKey === "string" && isHex(listId, 32), `${key}: a list's key or id`);
      must(category === null || typeof category === "string", `${listKey}: category`);
      const items: Buffer[] = [];
      for (const [pieceId, pack, offset, lengths] of pieces) {
        must(isHex(pieceId, 64) && Array.isArray(lengths) && lengths.length > 0, `${listKey}: a piece's id or lengths`);
        const size = lengths.reduce((a, b) => a + b, 0) + lengths.length - 1 + 2;
        const body = storedAt(listKey, place(pack, offset, size), offset, size, "identity");
        must(sha256(body) === pieceId, `${listKey}: piece ${pieceId} is not its bytes`);
        must(body[0] === 0x5b && body[body.byteLength - 1] === 0x5d, `${listKey}: piece ${pieceId} is no [ … ]`);
        let at = 1;
        for (const [n, length] of lengths.entries()) {
          items.push(body.subarray(at, at + length));
          at += length;
          must(body[at] === (n === lengths.length - 1 ? 0x5d : 0x2c), `${listKey}: an item's length in ${pieceId}`);
          at++;
        }
      }
      const ids = pieces.map((p) => p[0]);
      must(sha256(JSON.stringify([category, ids])).slice(0, 32) === listId, `${listKey}: its id is not its pieces'`);
      const categoryJson = category === null ? "null" : `"${category}"`;
      must(!lists.has(listKey) && !shardLines.has(listKey), `${listKey} is named twice`);
      lists.set(listKey, {
        key: listKey,
        id: listId,
        category,
        items,
        pieces: ids,
        page(limit, offset) {
          if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) return null;
          if (!Number.isInteger(offset) || offset < 0 || offset > items.length) return null;
          const window = items.slice(offset, offset + limit);
          return Buffer.concat([
            Buffer.from('{"data":['),
            ...window.flatMap((item, n) => (n === 0 ? [item] : [Buffer.from(","), item])),
            Buffer.from(
              `],"meta":{"total":${items.length},"limit":${limit},"offset":${offset},"category":${categoryJson}}}`,
            ),
          ]);
        },
      });
      shardLines.set(listKey, `${listKey}\t${listId}\t${items.length}\n`);
    }
    const keys = [...shardLines.keys()].sort();
    must(keys[0] === first, `${key}: its first key is ${keys[0]}, the record says ${first}`);
    if (i + 1 < refs.length) must(keys.at(-1)! < refs[i + 1]![0], `${key}: a key past the next shard's first`);
    const text = keys.map((k) => shardLines.get(k)!).join("");
    must(sha256(text).slice(0, 32) === digest, `${key}: its digest is not its keys' lines'`);
    must([...places.values()].reduce((a, b) => a + b, 0) === refStored, `${key}: storedBytes`);
    lines.push(text);
    storedBytes += refStored;
  }
  must(storedBytes === record.storedBytes, `${recordKey}: storedBytes is not its shards'`);
  must(record.files === files.size, `${recordKey}: ${String(record.files)} files, ${files.size} entries`);
  must(record.lists === lists.size, `${recordKey}: ${String(record.lists)} lists, ${lists.size} entries`);
  must(
    record.bytes === decodedBytes,
    `${recordKey}: ${String(record.bytes)} bytes, the files' sizes sum to ${decodedBytes}`,
  );
  must(sha256(lines.join("")).slice(0, 16) === id, `${recordKey}: the id is not its keys' lines'`);
  return {
    format,
    id: id!,
    pointer,
    files,
    lists,
    packs: union,
    shards: refs,
    shardOf(key) {
      let at = 0;
      for (const [i, ref] of refs.entries()) if (ref[0] <= key) at = i;
      return refs[at]![1];
    },
  };
}
