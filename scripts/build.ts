// npm run build: load → validate → derive → render → adapt → write.
// Flags: --content DIR (default content/), --out DIR (default dist/), --json (summary as JSON).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { adapters } from "./adapters/index.ts";
import { ContentErrors, formatContentError } from "./content/errors.ts";
import { loadContent } from "./content/load.ts";
import { validateContent } from "./content/validate.ts";
import { writeOutput, type WriteSummary } from "./io/write-output.ts";
import { deriveCatalog, type Catalog } from "./model/derive.ts";
import { renderCategories } from "./render/categories.ts";
import { renderErrors } from "./render/errors.ts";
import type { OutputFile } from "./render/output.ts";
import { renderRankings } from "./render/rankings.ts";
import { buildRouteTable, layout, type RouteTable } from "./render/route-table.ts";
import { renderSoftwarePages } from "./render/software-pages.ts";
import { renderToolFiles, serializeSummaries } from "./render/tools.ts";

export interface BuildOptions {
  contentDir: string;
  outDir: string;
  onProgress?: (message: string) => void;
}

export interface BuildResult extends WriteSummary {
  seconds: number;
  tools: number;
  categories: number;
}

/** Every file of dist/, lazily: pages are produced while earlier ones are written, never all held at once. */
export function* renderSite(catalog: Catalog, table: RouteTable): Generator<OutputFile> {
  const summaries = serializeSummaries(catalog);
  yield* renderToolFiles(catalog);
  yield renderCategories(catalog);
  yield* renderRankings(catalog);
  yield* renderErrors(catalog);
  yield* renderSoftwarePages(catalog, summaries);
  yield { path: layout(table.basePath).routeTable, body: JSON.stringify(table, null, 2) + "\n" };
  for (const adapt of Object.values(adapters)) yield* adapt(table);
}

/** Builds outDir from contentDir. Throws ContentErrors (every content error at once) before touching outDir. */
export async function build({ contentDir, outDir, onProgress }: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const validation = validateContent(await loadContent(contentDir));
  if (!validation.ok) throw new ContentErrors(validation.errors);
  const catalog = deriveCatalog(validation.content);
  const table = buildRouteTable(catalog.site);
  const written = await writeOutput(outDir, renderSite(catalog, table), (n) => onProgress?.(`wrote ${n.toLocaleString("en-US")} files…`));
  return {
    ...written,
    seconds: (performance.now() - started) / 1000,
    tools: catalog.tools.length,
    categories: catalog.categories.length,
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      content: { type: "string", default: "content" },
      out: { type: "string", default: "dist" },
      json: { type: "boolean", default: false },
    },
  });
  const contentDir = resolve(values.content);
  const outDir = resolve(values.out);
  const progress = values.json || !process.stderr.isTTY ? undefined : (m: string) => process.stderr.write(`\r${m}`);
  try {
    const result = await build({ contentDir, outDir, onProgress: progress });
    if (progress) process.stderr.write("\r\x1b[K");
    if (values.json) console.log(JSON.stringify({ ok: true, outDir: values.out, ...result }));
    else
      console.log(
        `built ${values.out}/: ${result.files.toLocaleString("en-US")} files, ${(result.bytes / 1e6).toFixed(1)} MB ` +
          `from ${result.tools} tools and ${result.categories} categories in ${result.seconds.toFixed(2)} s`,
      );
    return 0;
  } catch (e) {
    if (!(e instanceof ContentErrors)) throw e;
    if (values.json) console.log(JSON.stringify({ ok: false, errors: e.errors.map(formatContentError) }));
    else {
      for (const error of e.errors) console.error(formatContentError(error));
      console.error(`\nbuild failed: ${e.message}; ${values.out}/ was left as it was.`);
    }
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
