// What a build published, by its own record (the build manifest): every file's SHA-256 and size but the list pages',
// without reading a body, and the paths of its list pages from its lists. The one reader of that record for
// publication (the R2 upload): depend on these functions, not on the manifest's shape.
import { join } from "node:path";
import { loadRouteTable } from "../api/load-route-table.ts";
import { fill, layout, MAX_LIMIT } from "../api/runtime/route-table.ts";
import { MANIFEST_FILE, readManifest } from "./manifest.ts";

export interface BuildHash {
  /** SHA-256 of the file's bytes, hex */
  sha256: string;
  size: number;
}

/**
 * dist/ path (with `/`) → SHA-256 and size, for every file the build wrote but its list pages (whose items the run
 * files under runs/ hold once): what a publisher that writes pages as windows on their lists needs.
 */
export function readBuildFiles(distDir: string): Map<string, BuildHash> {
  const manifest = readManifest(distDir);
  if (!manifest) throw new Error(`${join(distDir, MANIFEST_FILE)} is missing or old: build again (npm run build)`);
  const hashes = new Map<string, BuildHash>();
  for (const [path, sha256] of manifest.files) hashes.set(path, { sha256, size: manifest.sizes.get(path)! });
  return hashes;
}

/** Every file the build wrote, as dist/ paths with `/`: its list pages too when it wrote them (a pages build). */
export async function readBuildPaths(distDir: string): Promise<string[]> {
  const manifest = readManifest(distDir);
  if (!manifest) throw new Error(`${join(distDir, MANIFEST_FILE)} is missing or old: build again (npm run build)`);
  const paths = [...manifest.files.keys()];
  const { page } = layout((await loadRouteTable(distDir)).basePath);
  for (const [filter, list] of Object.entries(manifest.lists)) {
    if (list.files === 0) continue; // a runs build wrote no page
    for (let limit = 1; limit <= MAX_LIMIT; limit++)
      for (let offset = 0; offset <= list.items.length; offset++) paths.push(fill(page, { filter, limit, offset }));
  }
  return paths;
}
