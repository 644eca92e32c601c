// What a build published, by its own record: every file's SHA-256 and size, without reading a body. Files other
// than list pages come from the build manifest; pages (and every body served by URL) from the hash tree the build
// writes under v1/sync/ (E2), each request target mapped to its file by the route table's resolver. The one reader
// of those records for publication (the R2 upload): depend on this function, not on the manifest's shape.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRouteTable } from "../api/load-route-table.ts";
import { createResolver } from "../api/runtime/resolve-request.ts";
import { fill, layout } from "../api/runtime/route-table.ts";
import { eachShardEntry } from "../render/hash-tree.ts";
import { MANIFEST_FILE, readManifest } from "./manifest.ts";

export interface BuildHash {
  /** SHA-256 of the file's bytes, hex */
  sha256: string;
  size: number;
}

/**
 * dist/ path (with `/`) → SHA-256 and size, for every file the build wrote but its list pages (whose items the run
 * files under runs/ hold once): what a publisher that writes pages as windows on their lists needs, without
 * reading the hash tree.
 */
export function readBuildFiles(distDir: string): Map<string, BuildHash> {
  const manifest = readManifest(distDir);
  if (!manifest) throw new Error(`${join(distDir, MANIFEST_FILE)} is missing or old: build again (npm run build)`);
  const hashes = new Map<string, BuildHash>();
  for (const [path, sha256] of manifest.files) hashes.set(path, { sha256, size: manifest.sizes.get(path)! });
  return hashes;
}

/** dist/ path (with `/`) → SHA-256 and size, for every file the build published. */
export async function readBuildHashes(distDir: string): Promise<Map<string, BuildHash>> {
  const manifest = readManifest(distDir);
  if (!manifest) throw new Error(`${join(distDir, MANIFEST_FILE)} is missing or old: build again (npm run build)`);
  const hashes = new Map<string, BuildHash>();
  for (const [path, sha256] of manifest.files) hashes.set(path, { sha256, size: manifest.sizes.get(path)! });
  const table = await loadRouteTable(distDir);
  const paths = layout(table.basePath);
  const resolver = createResolver(table);
  const root = JSON.parse(readFileSync(join(distDir, paths.syncRoot), "utf8")) as { data: Record<string, unknown> };
  for (const shard of Object.keys(root.data)) {
    const file = join(distDir, fill(paths.syncShard, { shard: `${shard}.json` }));
    // Read as text, entry by entry, each target resolved synchronously (the probe answers at once): an object and an
    // awaited resolution per target, for every target of the catalog, made even a one-price upload slow.
    eachShardEntry(readFileSync(file, "utf8"), (target, sha256, size) => {
      // The first file the route would try is the body's own (a page before its offset_out_of_range error).
      const r = resolver.resolve("GET", target, () => true);
      if (r instanceof Promise || r.kind !== "file") throw new Error(`${file}: ${target} resolves to no file`);
      if (!hashes.has(r.file)) hashes.set(r.file, { sha256, size });
    });
  }
  return hashes;
}
