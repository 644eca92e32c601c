// A second writer's view of a build, written from docs/hosts/r2-bucket-format.md alone ("What a build publishes",
// "Names, hashes and texts", "Where shards are cut"): it imports nothing from scripts/, reads the build's dist/ and
// hashes its bodies itself, and says what the bucket must hold for it: every key and its line, each file's ETag, size
// and coding, each list's id and pieces, the export's parts, the build's id, and every shard's first key and digest.
// Pack and shard names depend on the gzip bytes and on what the bucket held before: not computed here.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface WrittenBuild {
  id: string;
  keys: string[];
  lines: Map<string, string>;
  files: Map<string, { etag: string; size: number; coding: "gzip" | "identity" | "parts" }>;
  lists: Map<string, { id: string; category: string | null; pieces: string[]; lengths: number[] }>;
  /** the export and the find index in parts: their texts, and their pieces' ids per pieces part */
  parted: Map<string, (string | string[])[]>;
  /** each shard's first key and digest, in order */
  shards: [first: string, digest: string][];
}

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
const etagOf = (body: Uint8Array) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;

/** The document's cut: at least 256 keys, then a key whose hash is 0 modulo 512, or 4,096 keys. */
const SHARD = { min: 256, spread: 512, max: 4096 };

export function writtenBuild(dist: string): WrittenBuild {
  const index = JSON.parse(readFileSync(join(dist, "build-index.json"), "utf8")) as {
    files: [string, number][];
    lists: Record<string, { category: string | null; lengths: number[]; pieces: [string, number][] }>;
  };
  const lines = new Map<string, string>();
  const files: WrittenBuild["files"] = new Map();
  const lists: WrittenBuild["lists"] = new Map();
  const parted: WrittenBuild["parted"] = new Map();

  const listPieces = new Set<string>();
  for (const [filter, list] of Object.entries(index.lists)) {
    const key = `v1/software/pages/${filter}`;
    const ids = list.pieces.map(([id]) => id);
    for (const id of ids) listPieces.add(`v1/sync/pieces/${id}.json`);
    const id = sha256(JSON.stringify([list.category, ids])).slice(0, 32);
    lists.set(key, { id, category: list.category, pieces: ids, lengths: list.lengths });
    lines.set(key, `${key}\t${id}\t${list.lengths.length}\n`);
  }

  const exportPath = "v1/export/catalog.json";
  const tree = JSON.parse(readFileSync(join(dist, "v1/sync/catalog.json"), "utf8")) as {
    data: Record<string, { parts?: ({ text: string } | { pieces: [string, number, number][] })[] }>;
  };
  type Parts = ({ text: string } | { pieces: [string, number, number][] })[];
  const inParts = (path: string, parts: Parts | undefined) => {
    if (parts)
      parted.set(
        path,
        parts.map((part) => ("text" in part ? part.text : part.pieces.map(([id]) => id))),
      );
  };
  inParts(exportPath, tree.data[`/${exportPath}`]?.parts);
  // the find index, in the parts its record names
  inParts(
    "find-index.json",
    (JSON.parse(readFileSync(join(dist, "find-index.parts.json"), "utf8")) as { parts: Parts }).parts,
  );

  // the index's files, and the build record the Worker reads (the format's "Files")
  for (const path of [...index.files.map(([path]) => path), "find-index.json"]) {
    const body = readFileSync(join(dist, path));
    const etag = etagOf(body);
    const coding = parted.has(path) ? "parts" : listPieces.has(path) ? "identity" : "gzip";
    files.set(path, { etag, size: body.byteLength, coding });
    lines.set(path, `${path}\t${etag}\t${body.byteLength}\n`);
  }

  const keys = [...lines.keys()].sort();
  const shards: WrittenBuild["shards"] = [];
  let current: string[] = [];
  const close = () => {
    shards.push([current[0]!, sha256(current.map((k) => lines.get(k)!).join("")).slice(0, 32)]);
    current = [];
  };
  for (const key of keys) {
    current.push(key);
    const hash = createHash("sha256").update(key, "utf8").digest().readUInt32BE(0);
    if (current.length === SHARD.max || (current.length >= SHARD.min && hash % SHARD.spread === 0)) close();
  }
  if (current.length > 0) close();
  return {
    id: sha256(keys.map((k) => lines.get(k)!).join("")).slice(0, 16),
    keys,
    lines,
    files,
    lists,
    parted,
    shards,
  };
}
