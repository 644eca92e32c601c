// What a bucket holds, read as a Worker reads it (a shard whole, a body or a page's items by ranged reads): the live
// build byte for byte the build's files, every list page byte for byte the page the build writes (its page file, or
// in a runs build its slice of the run in the envelope), every object it names under the name its bytes' hash gives;
// and which complete packs the bucket has.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { expect } from "vitest";
import { loadRouteTable } from "../../../scripts/api/load-route-table.ts";
import type { BuildIndexText } from "../../../scripts/api/runtime/build-index.ts";
import { PAGE_PREFIX, pageSuffix } from "../../../scripts/api/runtime/page-envelope.ts";
import { fill, layout, MAX_LIMIT } from "../../../scripts/api/runtime/route-table.ts";
import { decodeShard } from "../../../scripts/hosts/cloudflare/r2/shards.ts";
import { pageFiles } from "../../../scripts/hosts/cloudflare/r2/upload.ts";
import { listKey, listPieceSize, packKey, shardKey } from "../../../scripts/hosts/cloudflare/worker/r2-layout.ts";

type Objects = ReadonlyMap<string, { body: Buffer }>;

/** An object's bytes or a range of them, or null when there is none. */
export type ReadObject = (key: string, range?: { offset: number; length: number }) => Promise<Uint8Array | null>;

const nameOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 32);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The build `live.json` names, or null. */
export const liveBuild = (objects: Objects): string | null => {
  const live = objects.get("live.json");
  return live ? (JSON.parse(live.body.toString("utf8")) as { build: string }).build : null;
};

/** The keys of the packs in the bucket (a multipart upload only makes one once it is complete). */
export const packKeys = (objects: Objects): Set<string> =>
  new Set([...objects.keys()].filter((k) => k.startsWith("packs/")));

/** A reader over a test server's or a memory bucket's objects. */
export const objectsReader =
  (objects: Objects): ReadObject =>
  async (key, range) => {
    const body = objects.get(key)?.body;
    if (!body) return null;
    return range ? body.subarray(range.offset, range.offset + range.length) : body;
  };

/** The page (limit, offset) of a list as the build writes it: its page file, or (a runs build) its slice of the run
 *  in the envelope (L1). */
export async function expectedPage(
  dist: string,
  filter: string,
  category: string | null,
  limit: number,
  offset: number,
): Promise<Buffer> {
  const file = join(dist, fill(layout("/v1").page, { filter, limit, offset }));
  if (existsSync(file)) return readFile(file);
  const run = await readFile(join(dist, `runs/${filter}.run`));
  const bytes = await readFile(join(dist, `runs/${filter}.offsets`));
  const off = new Uint32Array(new Uint8Array(bytes).buffer);
  const total = off.length - 1;
  const end = Math.min(offset + limit, total);
  return Buffer.concat([
    Buffer.from(PAGE_PREFIX),
    offset >= end ? Buffer.alloc(0) : run.subarray(off[offset]!, off[end]! - 1),
    Buffer.from(pageSuffix(total, limit, offset, JSON.stringify(category))),
  ]);
}

/**
 * The live build is `dist`, whole: every shard and pack it names is there under the name of its bytes' hash, every
 * published file of `dist` is in it (its stored body decoded equal to the file, the export's parts joined equal to
 * it), and every page of every list (each limit, each offset) equal to the build's page. `pages`: "all" (every
 * limit), or a few limits (faster, for tests that upload many times).
 */
export async function expectLiveBuildIs(
  source: Objects | ReadObject,
  dist: string,
  { pages = "all" }: { pages?: "all" | "some" } = {},
): Promise<void> {
  const read = typeof source === "function" ? source : objectsReader(source);
  const live = await read("live.json");
  expect(live, "a build is live").not.toBeNull();
  const pointer = JSON.parse(Buffer.from(live!).toString("utf8")) as { build: string; shards: [string, string][] };
  expect(await read(`builds/${pointer.build}/build.json`), "the live build's record").not.toBeNull();
  const seen = new Set<string>();
  const listed: string[] = [];
  const checkedPacks = new Set<string>();
  const range = async (pack: string, offset: number, length: number) => {
    const bytes = await read(packKey(pack), { offset, length });
    expect(bytes?.byteLength, `${pack}@${offset}`).toBe(length);
    return Buffer.from(bytes!);
  };
  const template = layout("/v1").page;
  const limits = pages === "all" ? Array.from({ length: MAX_LIMIT }, (_, i) => i + 1) : [1, 2, 3, 20, MAX_LIMIT];
  for (const [, name] of pointer.shards) {
    const bytes = await read(shardKey(name));
    expect(bytes, shardKey(name)).not.toBeNull();
    expect(nameOf(bytes!), `${shardKey(name)} is named by its hash`).toBe(name);
    const shard = decodeShard(bytes!);
    for (const pack of shard.packs) {
      if (checkedPacks.has(pack)) continue;
      const whole = await read(packKey(pack));
      expect(whole, packKey(pack)).not.toBeNull();
      expect(nameOf(whole!), `${packKey(pack)} is named by its hash`).toBe(pack);
      checkedPacks.add(pack);
    }
    for (const [path, , size, pack, offset, length, coding] of shard.files) {
      const stored = await range(shard.packs[pack]!, offset, length);
      const body = coding === "gzip" ? gunzipSync(stored) : stored;
      expect(body.byteLength, path).toBe(size);
      expect(body.equals(await readFile(join(dist, path))), path).toBe(true);
      seen.add(path);
    }
    for (const [path, , size, parts] of shard.parted ?? []) {
      const chunks: Buffer[] = [];
      for (const part of parts) {
        if (typeof part === "string") chunks.push(Buffer.from(part));
        else
          for (const [k, [id, pack, offset, length, pieceSize]] of part.entries()) {
            const body = gunzipSync(await range(shard.packs[pack]!, offset, length));
            expect(body.byteLength, `${path}: piece ${id}`).toBe(pieceSize);
            expect(sha256(body), `${path}: piece ${id}`).toBe(id);
            chunks.push(Buffer.from(k === 0 ? "" : ","), body.subarray(1, -1));
          }
      }
      const body = Buffer.concat(chunks);
      expect(body.byteLength, path).toBe(size);
      expect(body.equals(await readFile(join(dist, path))), path).toBe(true);
      seen.add(path);
    }
    for (const [key, , category, pieces] of shard.lists ?? []) {
      const items: Buffer[] = [];
      for (const [id, pack, offset, lengths] of pieces) {
        const body = await range(shard.packs[pack]!, offset, listPieceSize(lengths));
        expect(sha256(body), `${key}: piece ${id}`).toBe(id);
        let at = 1;
        for (const length of lengths) {
          items.push(body.subarray(at, at + length));
          at += length + 1;
        }
      }
      const filter = key.slice(listKey(template, "").length);
      for (const limit of limits)
        for (let offset = 0; offset <= items.length; offset++) {
          const page = Buffer.concat([
            Buffer.from(PAGE_PREFIX),
            ...items.slice(offset, offset + limit).flatMap((item, i) => (i === 0 ? [item] : [Buffer.from(","), item])),
            Buffer.from(pageSuffix(items.length, limit, offset, JSON.stringify(category))),
          ]);
          const path = fill(template, { filter, limit, offset });
          expect(page.equals(await expectedPage(dist, filter, category, limit, offset)), path).toBe(true);
        }
      listed.push(`${key}/`);
    }
  }
  // What the build names: the files of its index, and every page of its lists.
  const index = JSON.parse(await readFile(join(dist, "build-index.json"), "utf8")) as BuildIndexText;
  const named = [...index.files.map(([path]) => path), ...pageFiles(await loadRouteTable(dist), index)];
  const missing = named.filter((f) => !seen.has(f) && !listed.some((l) => f.startsWith(l)));
  expect(missing, "files of the build the live build lacks").toEqual([]);
}
