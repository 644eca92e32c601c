// The static copy `npm run export` (scripts/commands/export.ts) makes: what a file-only host should serve from a
// build, copied into a folder of its own, to upload as it is (GitHub Pages, S3, Cloudflare Pages, Netlify).
// routes.json, the build manifest and every other host's config stay behind, so nothing internal is downloadable.
// A runs build (each list once, no page file) is copied the same way, and its list pages are written from its runs
// (pages-from-runs.ts): a file host always gets a page per file, never the runs.

import { constants } from "node:fs";
import { copyFile, mkdir, readdir, readFile, realpath, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import fg from "fast-glob";
import { layout, type RouteTable } from "../../api/runtime/route-table.ts";
import { servedFileFilter } from "../../api/served-files.ts";
import { UserError } from "../../cli/command.ts";
import { readBuildIndex } from "../../io/read-build-index.ts";
import { alignedLimitsBody, alignedLimitsFile, alignedPageFilter } from "./aligned-pages.ts";
import { listsOfRuns, writePagesOf } from "./pages-from-runs.ts";
import { type PublishHost, publishedFileFilter } from "./published-files.ts";
import { SERVE_CONFIG_FILE, staticCopyServeConfig } from "./serve-json.ts";

export interface StaticCopy {
  host: PublishHost;
  /** the build generation the files came from (dist/ resolved) */
  from: string;
  out: string;
  files: number;
  bytes: number;
  /** of those, the served files (api/served-files.ts) and their bytes; the others are the host's own files */
  served: number;
  servedBytes: number;
  /** the host's own files: its 404 page, its configs */
  hostFiles: string[];
  /** the page sizes kept by --pages aligned; absent when every page was copied */
  alignedLimits?: readonly number[];
}

/** The real path of a folder that may not exist yet: its nearest existing ancestor resolved, the rest appended. */
async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (e) {
    const parent = dirname(path);
    if ((e as NodeJS.ErrnoException).code !== "ENOENT" || parent === path) throw e;
    return join(await realPathOf(parent), relative(parent, path));
  }
}

/** Refuses an out folder that holds anything, or that overlaps the build: a static copy never overwrites. */
async function checkOut(out: string, from: string): Promise<void> {
  const inside = (a: string, b: string) => a === b || a.startsWith(b + sep);
  const outReal = await realPathOf(out);
  if (inside(outReal, from) || inside(from, outReal))
    throw new UserError(`--out ${out} overlaps the build ${from}: choose a folder outside it`);
  const entries = await readdir(out).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return [];
    if (e.code === "ENOTDIR") throw new UserError(`--out ${out} is a file: choose a folder`);
    throw e;
  });
  if (entries.length > 0) throw new UserError(`--out ${out} is not empty: remove it or choose another folder`);
}

/** Copies the published files of the build at `dist` into `out`, from one generation even if dist/ is republished meanwhile. */
export async function makeStaticCopy(
  dist: string,
  out: string,
  host: PublishHost,
  alignedLimits?: readonly number[],
): Promise<StaticCopy> {
  const from = await realpath(dist).catch(() => {
    throw new UserError(`no build at ${dist}: run npm run build first`);
  });
  // routes.json is named alike under every base path: the base path is in it.
  const tableFile = layout("/").routeTable;
  const table = JSON.parse(
    await readFile(join(from, tableFile), "utf8").catch(() => {
      throw new UserError(`${dist} has no ${tableFile}: it is not a build of this project (run npm run build)`);
    }),
  ) as RouteTable;
  const index = readBuildIndex(from, layout(table.basePath).page);
  // A runs build's lists, read (and checked against its index) before anything is written.
  const lists = index.layout === "runs" ? listsOfRuns(from, index) : undefined;
  await checkOut(out, from);
  const published = publishedFileFilter(table, host);
  const aligned = alignedLimits ? alignedPageFilter(layout(table.basePath).page, alignedLimits) : () => true;
  const files = (await fg("**", { cwd: from, dot: true, onlyFiles: true, followSymbolicLinks: false }))
    .filter((file) => published(file) && aligned(file))
    .sort();
  let bytes = 0;
  let servedBytes = 0;
  const isServed = servedFileFilter(table);
  const hostFiles: string[] = [];
  const dirs = new Set<string>();
  for (const file of files) {
    const target = join(out, file);
    const dir = dirname(target);
    if (!dirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      dirs.add(dir);
    }
    // A copy, never a hard link: a later build may rewrite the generation's files, the copy must not change.
    await copyFile(join(from, file), target, constants.COPYFILE_FICLONE);
    const size = (await stat(target)).size;
    bytes += size;
    if (isServed(file)) servedBytes += size;
    else hostFiles.push(file);
  }
  // Files the copy makes rather than copies: `npx serve` reads serve.json from the folder it serves (the build's
  // own serves dist/v1 and holds what a static copy leaves out), and the aligned copy's limits.
  const made = new Map<string, string>();
  if (host === "serve") made.set(SERVE_CONFIG_FILE, `${JSON.stringify(staticCopyServeConfig(table), null, 2)}\n`);
  if (alignedLimits) made.set(alignedLimitsFile(table.basePath), alignedLimitsBody(alignedLimits));
  for (const [file, body] of made) {
    await mkdir(dirname(join(out, file)), { recursive: true });
    await writeFile(join(out, file), body);
    bytes += Buffer.byteLength(body);
  }
  // A runs build's pages, written from its runs (every one, or the aligned ones).
  const pages = lists
    ? await writePagesOf(lists, out, layout(table.basePath).page, alignedLimits)
    : { written: 0, writtenBytes: 0 };
  bytes += pages.writtenBytes;
  servedBytes += pages.writtenBytes;
  const served = files.length - hostFiles.length + pages.written;
  hostFiles.push(...made.keys());
  return {
    host,
    from,
    out,
    files: files.length + made.size + pages.written,
    bytes,
    served,
    servedBytes,
    hostFiles,
    ...(alignedLimits ? { alignedLimits } : {}),
  };
}
