// The two layouts of one build (design 48 section 1): the page files of a pages build against its runs (L1), and a runs
// build against a pages build of the same content (H6: the same files but the page files).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { PAGE_PREFIX, pageSuffix } from "../../../scripts/api/runtime/page-envelope.ts";
import { offsetsFile, parseOffsets, runFile } from "../../../scripts/render/list-runs.ts";
import { hashTree } from "../fs/tree.ts";

const PAGES = "v1/software/pages/";

/**
 * Every page file of a pages build in `dist`, compared byte for byte with the page its list's run and offsets make (two
 * offsets read by position, one slice of the run, the envelope): the paths of the pages that differ, and how many
 * were compared. Also every run file against the items its pages hold at limit 100.
 */
export async function pagesAgainstRuns(dist: string): Promise<{ compared: number; differ: string[] }> {
  const index = JSON.parse(readFileSync(join(dist, "build-index.json"), "utf8")) as {
    lists: Record<string, { category: string | null }>;
  };
  const differ: string[] = [];
  let compared = 0;
  for (const [filter, { category }] of Object.entries(index.lists)) {
    const run = readFileSync(join(dist, runFile(filter)));
    const offsets = parseOffsets(readFileSync(join(dist, offsetsFile(filter))));
    const total = offsets.length - 1;
    if (total > 0 && offsets[total] !== run.byteLength + 1) differ.push(`${runFile(filter)}: offsets end elsewhere`);
    const pages = await fg(`${PAGES}${filter}/*/*.json`, { cwd: dist });
    if (pages.length !== 100 * (total + 1)) differ.push(`${filter}: ${pages.length} page files for ${total} items`);
    for (const page of pages) {
      const [limit, offset] = page.slice(`${PAGES}${filter}/`.length, -".json".length).split("/").map(Number) as [
        number,
        number,
      ];
      const end = Math.min(offset + limit, total);
      const slice = offset < end ? run.subarray(offsets[offset]!, offsets[end]! - 1) : Buffer.alloc(0);
      const made = Buffer.concat([
        Buffer.from(PAGE_PREFIX),
        slice,
        Buffer.from(pageSuffix(total, limit, offset, JSON.stringify(category))),
      ]);
      if (!made.equals(readFileSync(join(dist, page)))) differ.push(page);
      compared++;
    }
  }
  return { compared, differ };
}

/** The nginx config, which names the layout too: a runs build's answers list pages with njs (nginx.md#runs). */
const NGINX = "nginx/";

/** A build's files by path (sha1 of their bytes), its page files and build records that name the layout aside. */
export async function filesButPages(dist: string): Promise<Map<string, string>> {
  const files = await hashTree(dist);
  for (const path of [...files.keys()])
    if (
      path.startsWith(PAGES) ||
      path.startsWith(NGINX) ||
      path === "build-index.json" ||
      path === ".build-manifest.json"
    )
      files.delete(path);
  return files;
}

/** The build's index with its layout left out: what both layouts of one build hold alike. */
export function indexButLayout(dist: string): unknown {
  const { layout: _, ...rest } = JSON.parse(readFileSync(join(dist, "build-index.json"), "utf8")) as {
    layout: string;
  };
  return rest;
}
