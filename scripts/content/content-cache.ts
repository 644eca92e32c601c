// What the last good build read, remembered by each content file's signature (file-hashes.cjs explains the rule), so
// a rebuild reads and validates only the files changed since: with a cold disk cache, reading every tool file was a
// large part of a one-price rebuild. It lives in the store folder beside the generations, never inside one (content
// holds fields that are never published), and only a build whose content passed writes it.
//
// Two files: the whole cache, and the files read anew since it was written. A rebuild that read one file writes a
// small file of changes (not the whole cache, which grows with the catalog); the whole is rewritten once they pile up.
// Any mix of the two is safe: an entry is used only while its file's signature is the one it was read with.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { writeCacheFile } from "../launcher/project-cache.cjs";
import {
  type Column,
  type Columns,
  columnValues,
  fromColumns,
  listsOf,
  toColumn,
  toColumns,
  toLists,
} from "./cache-columns.ts";
import type { FilePlaceholder } from "./errors.ts";
import type { KnownFile, KnownFiles } from "./load.ts";
import { PARSED_TOOL_FIELDS, type ParsedToolFields, recalledParts, recalledTool } from "./recalled-tool.ts";
import type { ToolContent } from "./schema.ts";

export const CONTENT_CACHE_FILE = ".content-cache.v8";
export const CONTENT_CHANGES_FILE = ".content-cache-changes.v8";

/** Files read anew (or gone) since the whole cache was written, before it is written again. */
export const REWRITE_AFTER = 64;

/**
 * In V8's serialization format (backward compatible, made to be stored), holding each file's parsed value: read
 * faster than JSON and than texts parsed one by one, with less garbage for the collector, and faster still field by
 * field (cache-columns.ts). Written and read in frames
 * (a 4-byte length, then that many bytes of one serialized value): a CacheHeader, then the files FRAME_FILES at a
 * time, so writing the cache of 103,528 tools never holds its 114 MB serialized at once (it was a build's peak).
 */
interface CacheHeader {
  format: typeof CACHE_FORMAT;
  /** the code and schemas that read and judged these files: any change there and none is trusted */
  key: string;
  /** how many content files the build that wrote it had (files changed in its last seconds are not remembered) */
  count?: number;
}
/**
 * The files of one frame, field by field (cache-columns.ts says why): in file order, each one's absolute path,
 * signature, sha1 of its text and parsed value (null for a tool, kept as its parts); the placeholders in its strings
 * (none looked for yet: no list); what was rendered from it; and a tool's parts (recalled-tool.ts): its parsed fields,
 * categories, plan prices and JSON text.
 */
interface CacheFrame {
  paths: string[];
  signatures: string[];
  hashes: string[];
  values: Column;
  placeholders: { counts: number[]; items: Columns };
  memos: Columns;
  tools: { fields: Columns; prices: Column; texts: Column };
}

/** A placeholder's fields, in the order placeholders.ts makes them. */
const PLACEHOLDER_FIELDS = ["path", "kind", "message"] satisfies (keyof FilePlaceholder)[];

const CACHE_FORMAT = 5;
const FRAME_FILES = 1000;

export interface ContentCache {
  /** every file remembered */
  files: KnownFiles;
  /** those of them from the file of changes */
  changes: KnownFiles;
  /** whether the whole cache was there (else the next write is a whole one) */
  whole: boolean;
  /** how many content files the last good build had, when known */
  count?: number;
}

/** No cache: what a --full build starts from, and what other code finds. */
export const emptyContentCache = (): ContentCache => ({ files: new Map(), changes: new Map(), whole: false });

const readCacheFile = (path: string, key: string): { files: KnownFiles; count?: number } => {
  const files: KnownFiles = new Map();
  try {
    const bytes = readFileSync(path);
    let at = 0;
    const next = () => {
      const length = bytes.readUInt32LE(at);
      return deserialize(bytes.subarray(at + 4, (at += 4 + length)));
    };
    const header = next() as CacheHeader;
    if (header.format !== CACHE_FORMAT || header.key !== key) return { files };
    while (at < bytes.length) readFrame(next() as CacheFrame, files);
    return { files, count: header.count };
  } catch {
    return { files: new Map() };
  }
};

/** One frame: its length, then its bytes. */
function* framed(value: unknown): Generator<Uint8Array> {
  const bytes = serialize(value);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(bytes.byteLength);
  yield length;
  yield bytes;
}

function* cacheFrames(key: string, files: KnownFiles, count: number): Generator<Uint8Array> {
  yield* framed({ format: CACHE_FORMAT, key, count } satisfies CacheHeader);
  const entries = [...files];
  for (let i = 0; i < entries.length; i += FRAME_FILES) yield* framed(toFrame(entries.slice(i, i + FRAME_FILES)));
}

function toFrame(entries: [string, KnownFile][]): CacheFrame {
  const known = entries.map(([, f]) => f);
  const parts = known.map((f) => (f.tool ? recalledParts(f.data as ToolContent) : undefined));
  const placeholders = toLists(known.map((f) => f.placeholders));
  return {
    paths: entries.map(([path]) => path),
    signatures: known.map((f) => f.signature),
    hashes: known.map((f) => f.hash),
    values: toColumn(known.map((f) => (f.tool ? null : f.data))),
    placeholders: { counts: placeholders.counts, items: toColumns(placeholders.items, PLACEHOLDER_FIELDS) },
    memos: toColumns(known.map((f) => f.memo)),
    tools: {
      fields: toColumns(
        parts.map((p) => p?.[0]),
        PARSED_TOOL_FIELDS,
      ),
      prices: toColumn(parts.map((p) => p?.[1])),
      texts: toColumn(parts.map((p) => p?.[2])),
    },
  };
}

function readFrame(frame: CacheFrame, files: KnownFiles): void {
  const values = columnValues(frame.values);
  const placeholders = listsOf(frame.placeholders.counts, fromColumns<FilePlaceholder>(frame.placeholders.items));
  const memos = fromColumns(frame.memos);
  const fields = fromColumns<ParsedToolFields>(frame.tools.fields);
  const prices = columnValues(frame.tools.prices) as (number | null)[][];
  const texts = columnValues(frame.tools.texts) as string[];
  frame.paths.forEach((path, i) => {
    const [signature, hash, memo] = [frame.signatures[i]!, frame.hashes[i]!, memos[i]];
    const found = placeholders[i] as FilePlaceholder[] | undefined;
    const parsed = fields[i];
    files.set(
      path,
      parsed
        ? {
            signature,
            data: recalledTool([parsed, prices[i]!, texts[i]!]),
            hash,
            placeholders: found,
            memo,
            tool: true,
          }
        : { signature, data: values[i], hash, placeholders: found, memo },
    );
  });
}

const writeCache = (path: string, key: string, files: KnownFiles, count: number) =>
  writeCacheFile(path, cacheFrames(key, files, count));

export function readContentCache(storeDir: string, key: string): ContentCache {
  const whole = readCacheFile(join(storeDir, CONTENT_CACHE_FILE), key);
  if (whole.files.size === 0) return emptyContentCache();
  const changes = readCacheFile(join(storeDir, CONTENT_CHANGES_FILE), key);
  const files = whole.files;
  for (const [path, file] of changes.files) files.set(path, file);
  // The file of changes is the newer one when it is there.
  return { files, changes: changes.files, whole: true, count: changes.count ?? whole.count };
}

/** After a good build: `known` is every file it read or recalled, `count` how many files it had. Best effort: without
 *  a cache the next build reads all. */
export function writeContentCache(
  storeDir: string,
  key: string,
  known: KnownFiles,
  cache: ContentCache,
  count: number,
): void {
  // Read anew, or what was rendered from it made anew (kept in place: the next build recalls it).
  const readAnew = [...known].filter(([path, f]) => f.memoRenewed || cache.files.get(path)?.signature !== f.signature);
  const gone = [...cache.files.keys()].filter((path) => !known.has(path)).length;
  if (readAnew.length === 0 && gone === 0 && count === cache.count) return;
  // Changes still true (their file is as they say), and this build's.
  const changes = new Map([...cache.changes].filter(([path, f]) => known.get(path)?.signature === f.signature));
  for (const [path, f] of readAnew) changes.set(path, f);
  try {
    if (!cache.whole || changes.size + gone >= REWRITE_AFTER) {
      writeCache(join(storeDir, CONTENT_CACHE_FILE), key, known, count);
      rmSync(join(storeDir, CONTENT_CHANGES_FILE), { force: true });
    } else writeCache(join(storeDir, CONTENT_CHANGES_FILE), key, changes, count);
  } catch {
    // an unwritable store folder fails the build elsewhere, with its own message
  }
}
