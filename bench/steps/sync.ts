// npm run bench -- --only sync: what search, the export and the hash tree add to a build (files, bytes, the seconds
// rendering and hashing the search answers take), and what npm run mirror moves for a one-price change (E3).
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { layout } from "../../scripts/api/runtime/route-table.ts";
import { sha256Hex } from "../../scripts/api/sha256-node.ts";
import { loadContent } from "../../scripts/content/load.ts";
import { validateContent } from "../../scripts/content/validate.ts";
import { startServer } from "../../scripts/hosts/node/server/start-server.ts";
import { updateMirror } from "../../scripts/mirror/update-mirror.ts";
import { deriveCatalog } from "../../scripts/model/derive.ts";
import { renderSearch } from "../../scripts/render/search.ts";
import { serializeSummaries } from "../../scripts/render/software.ts";
import { catalogTexts } from "../../scripts/render/tool-texts.ts";
import { runBuild } from "../measure/run-build.ts";
import { changeOnePrice } from "../workspace/catalog.ts";
import { contentDir, distDir, freshBuild, OUT } from "../workspace/out.ts";

export interface SyncSizes {
  n: number;
  treeFiles: number;
  treeBytes: number;
  buildSeconds: number;
  searchFiles: number;
  searchBytes: number;
  /** rendering and hashing every search answer, in this process (the part of the build search adds) */
  searchSeconds: number;
  exportBytes: number;
  syncFiles: number;
  syncBytes: number;
}

export interface MirrorOnePrice {
  n: number;
  change: string;
  requests: number;
  indexBytes: number;
  bodyBytes: number;
  bodiesFetched: number;
  shardsFetched: number;
}

export interface SyncBenchResult {
  sizes: SyncSizes[];
  mirror?: MirrorOnePrice;
}

async function folderSize(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const name of await readdir(dir)) {
    files++;
    bytes += (await stat(join(dir, name))).size;
  }
  return { files, bytes };
}

async function searchSeconds(n: number): Promise<number> {
  const raw = await loadContent(contentDir(n), new Map());
  const valid = validateContent(raw);
  if (!valid.ok) throw new Error("bench catalog is invalid");
  const catalog = deriveCatalog(valid.content);
  const paths = layout(catalog.site.basePath);
  const started = performance.now();
  for (const file of renderSearch(
    catalog,
    serializeSummaries(catalog, catalogTexts(catalog, []).bySlug),
    paths,
    "bench",
  ).answers.files())
    sha256Hex(file.body);
  return (performance.now() - started) / 1000;
}

export async function benchSync(
  sizes: number[],
  mainSize: number,
  log: (line: string) => void,
): Promise<SyncBenchResult> {
  const result: SyncBenchResult = { sizes: [] };
  for (const n of sizes) {
    log(`sync: building n = ${n}`);
    const run = await freshBuild(n, []);
    const dist = distDir(n);
    const files = layout("/v1");
    const search = await folderSize(join(dist, "v1/search"));
    const sync = await folderSize(join(dist, "v1/sync"));
    result.sizes.push({
      n,
      treeFiles: run.files,
      treeBytes: run.bytes,
      buildSeconds: run.reportedSeconds,
      searchFiles: search.files,
      searchBytes: search.bytes,
      searchSeconds: await searchSeconds(n),
      exportBytes: (await stat(join(dist, files.export))).size,
      syncFiles: sync.files,
      syncBytes: sync.bytes,
    });
    if (n !== mainSize) continue;
    log(`sync: mirroring n = ${n}, then a one-price change`);
    const server = await startServer({ distDir: dist, port: 0, host: "127.0.0.1" });
    try {
      const from = `${server.url.replace(/\/$/, "")}/v1`;
      const out = join(OUT, `mirror-${n}`);
      await updateMirror(from, out);
      const change = await changeOnePrice(contentDir(n), n);
      await runBuild(contentDir(n), dist, []);
      // The server follows the dist link: the next request sees the new build.
      const moved = await updateMirror(from, out);
      result.mirror = {
        n,
        change,
        requests: moved.requests,
        indexBytes: moved.indexBytes,
        bodyBytes: moved.bodyBytes,
        bodiesFetched: moved.bodiesFetched,
        shardsFetched: moved.shardsFetched,
      };
    } finally {
      await server.close();
    }
  }
  return result;
}

export function syncReport(r: SyncBenchResult): string {
  const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(2)}%`;
  const lines = ["Search, export and hash tree (added to each build)"];
  for (const s of r.sizes)
    lines.push(
      `  n = ${String(s.n).padStart(5)}: search ${s.searchFiles.toLocaleString("en-US")} files (${pct(s.searchFiles, s.treeFiles)} of ` +
        `${s.treeFiles.toLocaleString("en-US")}), ${(s.searchBytes / 1e6).toFixed(1)} MB (${pct(s.searchBytes, s.treeBytes)}); ` +
        `rendered and hashed in ${s.searchSeconds.toFixed(2)} s of a ${s.buildSeconds.toFixed(1)} s build (${pct(s.searchSeconds, s.buildSeconds)}); ` +
        `export ${(s.exportBytes / 1e6).toFixed(2)} MB; hash tree ${s.syncFiles} files, ${(s.syncBytes / 1e6).toFixed(1)} MB`,
    );
  if (r.mirror)
    lines.push(
      `  mirror, one price changed at n = ${r.mirror.n} (${r.mirror.change}): ${r.mirror.requests} requests, ` +
        `${(r.mirror.indexBytes / 1e3).toFixed(1)} kB of index (root + ${r.mirror.shardsFetched} shards; target ≤ 50 kB), ` +
        `${r.mirror.bodiesFetched} bodies, ${(r.mirror.bodyBytes / 1e3).toFixed(1)} kB`,
    );
  return lines.join("\n");
}
