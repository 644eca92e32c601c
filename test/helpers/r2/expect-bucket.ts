// What a bucket holds, read straight from a test bucket's objects (no request): the live build byte for byte the
// build's files, every object it names under the name its bytes' hash gives, and which complete packs it has.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { expect } from "vitest";
import { publishedFiles } from "../../../scripts/hosts/cloudflare/r2/upload.ts";

type Objects = ReadonlyMap<string, { body: Buffer }>;

const nameOf = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex").slice(0, 32);

/** The build `live.json` names, or null. */
export const liveBuild = (objects: Objects): string | null => {
  const live = objects.get("live.json");
  return live ? (JSON.parse(live.body.toString("utf8")) as { build: string }).build : null;
};

/** The keys of the packs in the bucket (a multipart upload only makes one once it is complete). */
export const packKeys = (objects: Objects): Set<string> =>
  new Set([...objects.keys()].filter((k) => k.startsWith("packs/")));

/**
 * The live build is `dist`, whole: every shard and pack it names is there under the name of its bytes' hash, and
 * every published file of `dist` is in it, its stored body gunzipped equal to the file. (A list page of a layout that
 * stores lists as runs is accounted for by its list's entry; its pages are checked where lists are.)
 */
export async function expectLiveBuildIs(objects: Objects, dist: string): Promise<void> {
  const live = objects.get("live.json");
  expect(live, "a build is live").toBeDefined();
  const pointer = JSON.parse(live!.body.toString("utf8")) as { build: string; shards: [string, string][] };
  expect(objects.has(`builds/${pointer.build}/build.json`), "the live build's record").toBe(true);
  const seen = new Set<string>();
  const listed: string[] = [];
  for (const [, name] of pointer.shards) {
    const bytes = objects.get(`shards/${name}`)?.body;
    expect(bytes, `shards/${name}`).toBeDefined();
    expect(nameOf(bytes!), `shards/${name} is named by its hash`).toBe(name);
    const shard = JSON.parse(gunzipSync(bytes!).toString("utf8")) as {
      packs: string[];
      files: [string, string, number, number, number, number][];
      lists?: [string, ...unknown[]][];
    };
    for (const pack of shard.packs) {
      const body = objects.get(`packs/${pack}`)?.body;
      expect(body, `packs/${pack}`).toBeDefined();
      expect(nameOf(body!), `packs/${pack} is named by its hash`).toBe(pack);
    }
    for (const [path, , size, pack, offset, length] of shard.files) {
      const stored = objects.get(`packs/${shard.packs[pack]}`)!.body.subarray(offset, offset + length);
      const body = gunzipSync(stored);
      expect(body.byteLength, path).toBe(size);
      expect(body.equals(await readFile(join(dist, path))), path).toBe(true);
      seen.add(path);
    }
    for (const [key] of shard.lists ?? []) listed.push(`${key}/`);
  }
  const missing = (await publishedFiles(dist)).filter((f) => !seen.has(f) && !listed.some((l) => f.startsWith(l)));
  expect(missing, "published files the live build lacks").toEqual([]);
}
