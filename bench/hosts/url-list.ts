// The fixed mixed request list of the serve step, read from a built tree: pages with and without filters, tools,
// categories, best lists, errors and conditional requests (304). Each entry also names the dist/ file that
// answers it, so a plain static server can be asked for the same bodies by their file paths.
import { existsSync, readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fill, layout, type RouteTable } from "../../scripts/api/runtime/route-table.ts";

export interface BenchRequest {
  /** the API URL path (with query) a routing host is asked */
  path: string;
  /** the dist/ file answering it, for plain static hosts */
  file: string;
  /** the status a routing host answers (304 when `conditional`) */
  status: number;
  /** sent with If-None-Match: the ETag the host gave for it */
  conditional: boolean;
}

/** Evenly spread picks from a sorted list, so the list depends only on the catalog. */
function spread<T>(items: T[], count: number): T[] {
  if (items.length === 0) throw new Error("the built tree has no entries to pick from");
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

const jsonNames = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".json"))
    .map((d) => d.name.slice(0, -5))
    .sort();

export async function buildRequestList(distDir: string): Promise<{ basePath: string; requests: BenchRequest[] }> {
  const table = JSON.parse(await readFile(join(distDir, "routes.json"), "utf8")) as RouteTable;
  const base = table.basePath;
  const files = layout(base);
  const tools = spread(jsonNames(join(distDir, base, "software")), 3);
  const bestCategories = spread(jsonNames(join(distDir, base, "best")), 2);
  const categoryFilter = (slug: string) => `category/${slug}`;
  const page = (filter: string, limit: number, offset: number) => {
    const file = fill(files.page, { filter, limit, offset });
    return existsSync(join(distDir, file))
      ? { file, status: 200 }
      : { file: fill(files.offsetOutOfRange, { filter }), status: 400 };
  };
  const ok = (path: string, file: string): BenchRequest => ({ path, file, status: 200, conditional: false });
  const error = (path: string, id: keyof RouteTable["errors"]): BenchRequest => ({
    path,
    file: table.errors[id].file,
    status: table.errors[id].status,
    conditional: false,
  });
  const pageRequest = (path: string, filter: string, limit: number, offset: number): BenchRequest => ({
    path,
    ...page(filter, limit, offset),
    conditional: false,
  });
  const [c1, c2] = bestCategories as [string, string];
  const requests: BenchRequest[] = [
    pageRequest(`${base}/software`, "all", 20, 0),
    pageRequest(`${base}/software?limit=100&offset=40`, "all", 100, 40),
    pageRequest(`${base}/software?category=${c1}`, categoryFilter(c1), 20, 0),
    pageRequest(`${base}/software?category=${c2}&limit=10&offset=10`, categoryFilter(c2), 10, 10),
    ...tools.map((slug) => ok(`${base}/software/${slug}`, fill(files.tool, { slug }))),
    ok(`${base}/categories`, files.categories),
    ...bestCategories.map((slug) => ok(`${base}/best/${slug}`, fill(files.best, { categorySlug: slug }))),
    error(`${base}/software?limit=0`, "invalid_limit"),
    error(`${base}/software/no-such-tool-bench`, "software_not_found"),
    error(`${base}/no-such-endpoint`, "not_found"),
    {
      path: `${base}/software?offset=999999`,
      file: fill(files.offsetOutOfRange, { filter: "all" }),
      status: 400,
      conditional: false,
    },
    {
      path: `${base}/software`,
      file: fill(files.page, { filter: "all", limit: 20, offset: 0 }),
      status: 304,
      conditional: true,
    },
    {
      path: `${base}/software/${tools[0]}`,
      file: fill(files.tool, { slug: tools[0]! }),
      status: 304,
      conditional: true,
    },
    { path: `${base}/categories`, file: files.categories, status: 304, conditional: true },
  ];
  return { basePath: base, requests };
}

/** The first-page file (limit 1–100, offset 0) whose size is nearest to `bytes`: the ceiling server's one body. */
export function ceilingBodyFile(distDir: string, basePath: string, bytes: number): string {
  const files = layout(basePath);
  let best = { file: "", distance: Infinity };
  for (let limit = 1; limit <= 100; limit++) {
    const file = fill(files.page, { filter: "all", limit, offset: 0 });
    const path = join(distDir, file);
    if (!existsSync(path)) continue;
    const distance = Math.abs(statSync(path).size - bytes);
    if (distance < best.distance) best = { file, distance };
  }
  if (!best.file) throw new Error(`${distDir} has no first pages`);
  return join(distDir, best.file);
}

/** Every URL a routing host answers from the built tree: each page of each list, each tool, ranking, the small
 *  files and each kind of error. The serve step's cold set: far more bytes than any in-memory cache holds. */
export async function buildColdList(distDir: string): Promise<{ requests: BenchRequest[]; bytes: number }> {
  const table = JSON.parse(await readFile(join(distDir, "routes.json"), "utf8")) as RouteTable;
  const base = table.basePath;
  const files = layout(base);
  const requests: BenchRequest[] = [];
  let bytes = 0;
  const add = (path: string, file: string, status: number) => {
    requests.push({ path, file, status, conditional: false });
    bytes += statSync(join(distDir, file)).size;
  };
  const listDir = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
  const pagesRoot = join(distDir, files.page.split("/{filter}/")[0]!);
  const filters = ["all", ...listDir(join(pagesRoot, "category")).map((slug) => `category/${slug}`)];
  for (const filter of filters) {
    const query = filter === "all" ? "" : `&category=${filter.slice("category/".length)}`;
    for (const limit of listDir(join(pagesRoot, filter))) {
      if (!/^\d+$/.test(limit)) continue;
      for (const name of listDir(join(pagesRoot, filter, limit))) {
        const offset = /^(\d+)\.json$/.exec(name)?.[1];
        if (offset !== undefined)
          add(
            `${base}/software?limit=${limit}&offset=${offset}${query}`,
            fill(files.page, { filter, limit, offset }),
            200,
          );
      }
    }
    add(`${base}/software?offset=99999999${query}`, fill(files.offsetOutOfRange, { filter }), 400);
  }
  for (const slug of jsonNames(join(distDir, base, "software")))
    add(`${base}/software/${slug}`, fill(files.tool, { slug }), 200);
  for (const slug of jsonNames(join(distDir, base, "best")))
    add(`${base}/best/${slug}`, fill(files.best, { categorySlug: slug }), 200);
  add(`${base}/categories`, files.categories, 200);
  const error = (path: string, id: keyof RouteTable["errors"]) =>
    add(path, table.errors[id].file, table.errors[id].status);
  error(`${base}/software?limit=0`, "invalid_limit");
  error(`${base}/software?offset=-1`, "invalid_offset");
  error(`${base}/software/no-such-tool-bench`, "software_not_found");
  error(`${base}/software?category=no-such-category-bench`, "category_not_found");
  error(`${base}/best/no-such-category-bench`, "category_not_found");
  error(`${base}/no-such-endpoint`, "not_found");
  return { requests, bytes };
}
