// What a build publishes to an R2 bucket (worker/r2-layout.ts), from the build's own records, never by reading or
// hashing its bodies: the files it names (build-index.json), each one's SHA-256 and size (the build manifest:
// scripts/io/build-hashes.ts), each list's category, items' lengths and pieces (build-index.json), and the export's
// parts (its entry in the hash tree's `catalog` shard). A list page is no file of it: each list is a key of its own, its pieces stored as they are; the
// export is stored as its parts (texts and pieces), never whole. Either layout of a build gives the same publication.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRouteTable } from "../../../api/load-route-table.ts";
import { BUILD_INDEX_FILE, BUILD_INDEX_FORMAT, type BuildIndexText } from "../../../api/runtime/build-index.ts";
import { etagFromSha256Hex } from "../../../api/runtime/etag.ts";
import { fill, layout, type RouteTable } from "../../../api/runtime/route-table.ts";
import { sha256Hex } from "../../../api/sha256-node.ts";
import { UserError } from "../../../cli/command.ts";
import { type BuildHash, readBuildFiles } from "../../../io/build-hashes.ts";
import { FIND_INDEX_FILE } from "../../../model/find-index.ts";
import { FIND_INDEX_PARTS_FILE, FIND_PIECES_DIR, type FindIndexParts } from "../../../render/find-index.ts";
import { publishedPathFilter, WORKER_RECORDS } from "../adapter.ts";
import {
  compareKeys,
  keyLine,
  listIdText,
  listKey,
  listPieceSize,
  type StoredCoding,
  storedId,
} from "../worker/r2-layout.ts";

/** A file of the build stored as one body: gzip-compressed, or (a list's piece) as it is. */
export interface PublishedFile {
  path: string;
  etag: string;
  size: number;
  coding: StoredCoding;
}

/** A piece as the publication names it: its id (the SHA-256 of its body, hex), its file, its body's ETag and size. */
export interface PublishedPiece {
  id: string;
  path: string;
  etag: string;
  size: number;
}

export interface PublishedList {
  key: string;
  /** the first 32 hex digits of the SHA-256 of listIdText(category, piece ids) */
  id: string;
  category: string | null;
  total: number;
  pieces: (PublishedPiece & { lengths: number[] })[];
}

/** A body stored in its parts: texts, and pieces (stored gzip-compressed, as ordinary bodies). */
export interface PublishedParted {
  path: string;
  etag: string;
  size: number;
  parts: (string | PublishedPiece[])[];
}

export interface Publication {
  files: Map<string, PublishedFile>;
  lists: Map<string, PublishedList>;
  parted: Map<string, PublishedParted>;
  /** every key, sorted: files' paths, lists' keys, parted bodies' paths */
  keys: string[];
  /** each key's line (worker/r2-layout.ts keyLine): what the digests and the build id hash */
  lines: Map<string, string>;
  /** the build's id: the first 16 hex digits of the SHA-256 of every key's line, in key order */
  id: string;
  /** the decoded bytes of the files and parted bodies, each counted */
  bytes: number;
  /** the stored bodies it needs, each once (storedId) */
  stored: Set<string>;
}

/** Where a piece is a file: the hash tree's folder for pieces (`v1/sync/pieces/<id>.json`). */
export const piecePath = (table: RouteTable, id: string): string =>
  fill(layout(table.basePath).syncPiece, { piece: `${id}.json` });

/** The hash tree's entry of a body (E2), as the build wrote it: its SHA-256, size and, made of pieces, its parts (the
 *  find index's parts record has the parts alone). */
interface TreeEntry {
  sha256?: string;
  size?: number;
  parts?: FindIndexParts["parts"];
}

/** A JSON file's value, or undefined when it is missing or no JSON. */
function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** The export's entry in the hash tree's catalog-wide shard, or undefined when it has none there. */
function exportEntry(root: string, table: RouteTable): TreeEntry | undefined {
  const paths = layout(table.basePath);
  const shard = readJson<{ data: Record<string, TreeEntry> }>(
    join(root, fill(paths.syncShard, { shard: "catalog.json" })),
  );
  return shard?.data[`${table.basePath}/export/catalog.json`];
}

/** Reads what `root` (a generation folder) publishes; `distDir` as the user named it, for messages. */
export async function readPublication(root: string, distDir = root): Promise<Publication> {
  const table = await loadRouteTable(root);
  const isPublished = publishedPathFilter(table);
  const hashes = readBuildFiles(root);
  let index: BuildIndexText;
  try {
    index = JSON.parse(readFileSync(join(root, BUILD_INDEX_FILE), "utf8")) as BuildIndexText;
  } catch {
    throw new UserError(`${distDir} has no ${BUILD_INDEX_FILE}: build it again with this version (npm run build)`);
  }
  const lists = Object.entries(index.lists ?? {});
  if (index.format !== BUILD_INDEX_FORMAT || lists.some(([, l]) => !Array.isArray(l.pieces)))
    throw new UserError(`${distDir} was built before lists were cut into pieces: build it again (npm run build)`);
  const hashOf = (path: string): BuildHash => {
    const found = hashes.get(path);
    if (!found) throw new UserError(`${distDir}: the build names ${path} but its manifest does not: build it again`);
    return found;
  };
  /** A piece the build wrote at `path`: checked by the manifest against its name (and its size, when given). */
  const piece = (id: string, size?: number, path = piecePath(table, id)): PublishedPiece => {
    const found = hashOf(path);
    if (found.sha256 !== id || (size !== undefined && found.size !== size))
      throw new UserError(`${distDir}: ${path} is not the piece its name says: build it again`);
    return { id, path, etag: etagFromSha256Hex(id), size: found.size };
  };
  /** A body stored in its parts, as the build named them (`pathOf`: where each piece is a file). */
  const partedBody = (path: string, entry: TreeEntry, pathOf: (id: string) => string): PublishedParted => {
    const { sha256, size } = hashOf(path);
    let partsSize = 0;
    const parts = entry.parts!.map((part) => {
      if ("text" in part) {
        partsSize += Buffer.byteLength(part.text);
        return part.text;
      }
      const pieces = part.pieces.map(([id, , pieceSize]) => piece(id, pieceSize, pathOf(id)));
      partsSize += pieces.reduce((sum, p) => sum + p.size - 2, 0) + Math.max(0, pieces.length - 1);
      return pieces;
    });
    if ((entry.sha256 !== undefined && entry.sha256 !== sha256) || partsSize !== size)
      throw new UserError(`${distDir}: the parts of ${path} are not its body: build it again`);
    return { path, etag: etagFromSha256Hex(sha256), size, parts };
  };

  const pageTemplate = layout(table.basePath).page;
  const published = new Map<string, PublishedList>();
  const rawPieces = new Set<string>();
  for (const [filter, list] of lists) {
    let at = 0;
    const pieces = list.pieces.map(([id, items]) => {
      const lengths = list.lengths.slice(at, (at += items));
      rawPieces.add(id);
      return { ...piece(id, listPieceSize(lengths)), lengths };
    });
    if (at !== list.lengths.length)
      throw new UserError(`${distDir}: ${BUILD_INDEX_FILE}: the pieces of list ${filter} do not hold its items`);
    const key = listKey(pageTemplate, filter);
    const id = sha256Hex(
      listIdText(
        list.category,
        pieces.map((p) => p.id),
      ),
    ).slice(0, 32);
    published.set(key, { key, id, category: list.category, total: list.lengths.length, pieces });
  }

  // The export, stored in its parts when the hash tree names them; the find index in the parts its record names.
  const parted = new Map<string, PublishedParted>();
  const exportPath = layout(table.basePath).export;
  const entry = hashes.has(exportPath) ? exportEntry(root, table) : undefined;
  if (entry?.parts)
    parted.set(
      exportPath,
      partedBody(exportPath, entry, (id) => piecePath(table, id)),
    );
  const findParts = readJson<FindIndexParts>(join(root, FIND_INDEX_PARTS_FILE));
  if (findParts?.parts && hashes.has(FIND_INDEX_FILE))
    parted.set(
      FIND_INDEX_FILE,
      partedBody(FIND_INDEX_FILE, findParts, (id) => `${FIND_PIECES_DIR}/${id}.json`),
    );

  // The files the build names (build-index.json: what every host may answer with, list pages aside), and the build
  // records the Worker reads (its MCP tools' find index).
  const files = new Map<string, PublishedFile>();
  for (const path of [...index.files.map(([path]) => path), ...WORKER_RECORDS]) {
    if (!isPublished(path) || parted.has(path)) continue;
    const { sha256, size } = hashOf(path);
    const isRaw = rawPieces.has(sha256) && path === piecePath(table, sha256);
    files.set(path, { path, etag: etagFromSha256Hex(sha256), size, coding: isRaw ? "identity" : "gzip" });
  }

  const lines = new Map<string, string>();
  for (const f of files.values()) lines.set(f.path, keyLine(f.path, f.etag, f.size));
  for (const p of parted.values()) lines.set(p.path, keyLine(p.path, p.etag, p.size));
  for (const l of published.values()) lines.set(l.key, keyLine(l.key, l.id, l.total));
  const keys = [...lines.keys()].sort(compareKeys);
  const stored = new Set<string>();
  for (const f of files.values()) stored.add(storedId(f.etag, f.coding));
  for (const l of published.values()) for (const p of l.pieces) stored.add(storedId(p.etag, "identity"));
  for (const p of parted.values())
    for (const part of p.parts) if (typeof part !== "string") for (const x of part) stored.add(storedId(x.etag));
  return {
    files,
    lists: published,
    parted,
    keys,
    lines,
    id: sha256Hex(keys.map((k) => lines.get(k)!).join("")).slice(0, 16),
    bytes: [...files.values(), ...parted.values()].reduce((sum, f) => sum + f.size, 0),
    stored,
  };
}
