// The build: load → validate → derive → render → adapt → write (and publish: scripts/io/store.ts). Its command,
// `npm run build`, is scripts/commands/build.ts.
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { buildRouteTable } from "./api/contract/build-route-table.ts";
import type { BuildLayout } from "./api/runtime/build-index.ts";
import { layout, MAX_LIMIT, type RouteLayout, type RouteTable } from "./api/runtime/route-table.ts";
import { servedFileFilter } from "./api/served-files.ts";
import { formatCount } from "./cli/command.ts";
import { formatBytes } from "./cli/format-bytes.ts";
import { emptyContentCache, readContentCache, writeContentCache } from "./content/content-cache.ts";
import { ContentErrors } from "./content/errors.ts";
import { loadContent } from "./content/load.ts";
import { type ContentWarning, findPlaceholders } from "./content/placeholders.ts";
import { validateContent } from "./content/validate.ts";
import { checkWarnings, type WarningHistory } from "./content/warning-history.ts";
import type { AdapterBuild } from "./hosts/adapter-build.ts";
import { adapters } from "./hosts/adapters.ts";
import { hostLimitWarnings } from "./hosts/limits.ts";
import { startPageWriters } from "./io/page-writers.ts";
import { readPieceIds, writePieceIds } from "./io/piece-id-cache.ts";
import { inspectOutput } from "./io/store.ts";
import { type SiteOutput, type WriteSummary, writeOutput } from "./io/write-output.ts";
import { hashOfFile, saveFileHashes, sha1 } from "./launcher/file-hashes.cjs";
import { PROJECT_ROOT } from "./launcher/project-cache.cjs";
import { type Catalog, deriveCatalog } from "./model/derive.ts";
import { renderCatalogBody } from "./render/catalog-body.ts";
import { renderCategories } from "./render/categories.ts";
import { renderDocsPage } from "./render/docs-page.ts";
import { renderErrors } from "./render/errors.ts";
import { renderFindIndex } from "./render/find-index.ts";
import { listRunFiles } from "./render/list-runs.ts";
import { renderLlmsTxt } from "./render/llms-txt.ts";
import { renderOpenApi } from "./render/openapi.ts";
import { lazyFile, type OutputFile, routeTableKey } from "./render/output.ts";
import { cutPieces, LIST_PIECES, type PieceIds, pieceBody, pieceFiles, piecesOf } from "./render/pieces.ts";
import { renderRankings } from "./render/rankings.ts";
import { renderSchemaTable } from "./render/schema-table.ts";
import { renderSearch } from "./render/search.ts";
import { renderSoftwareDetails, serializeSummaries } from "./render/software.ts";
import { listChecker, listKeys, pageLists } from "./render/software-pages.ts";
import { type CatalogTexts, catalogTexts } from "./render/tool-texts.ts";

export interface BuildOptions {
  contentDir: string;
  outDir: string;
  full?: boolean;
  compress?: boolean;
  /** when another build holds the output: wait for it (default) or throw a UserError at once */
  wait?: boolean;
  /** one-line notices, e.g. that another build is running and this one waits */
  onNotice?: (line: string) => void;
  onProgress?: (message: string) => void;
  /** let the deletion of replaced folders outlive the build (the command line), instead of waiting for it */
  backgroundCleanup?: boolean;
  /** fail on scaffold placeholders (scripts/content/placeholders.ts) as on content errors, instead of warning */
  strict?: boolean;
  /**
   * remember this build's warnings as printed (scripts/content/warning-history.ts); false when they are not printed
   * (--json)
   */
  printsWarnings?: boolean;
  /** how the build holds its lists: a file per page (`pages`, the default) or each list once as a run (`runs`), L2 */
  layout?: BuildLayout;
}

export interface BuildResult extends WriteSummary {
  seconds: number;
  tools: number;
  categories: number;
  /** content files, and how many of them were recalled from the last good build rather than read (unchanged since) */
  contentFiles: number;
  contentRecalled: number;
  /** static hosts whose published limits this tree passes */
  warnings: string[];
  /** scaffold placeholders published as they are (TODO text, .example addresses, tools or categories left alone) */
  contentWarnings: ContentWarning[];
  /** which of them (and of `warnings`) are about files changed since the last good build, and which it printed */
  warningHistory: WarningHistory;
  /** how the build holds its lists: `runs` wrote no list page (--layout runs) */
  layout: BuildLayout;
  /** precompressed siblings were written (--compress) */
  compressed: boolean;
}

/**
 * Every file of dist/: the small ones whole, the list pages as lists of pre-serialized, validated items. `paths`: the
 * layout the route table was built with, handed to every renderer that names a file; `build`: what of the build shapes
 * the host configs besides the table (its layout, --compress).
 */
export function renderSite(
  catalog: Catalog,
  table: RouteTable,
  paths: RouteLayout,
  build: AdapterBuild,
  texts: CatalogTexts,
  /** the list pieces a build before made (io/piece-id-cache.ts); this build's go into `made` */
  pieceIds: { known: PieceIds; made: PieceIds } = { known: new Map(), made: new Map() },
): SiteOutput {
  const summaries = serializeSummaries(catalog, texts.bySlug);
  const software = renderSoftwareDetails(catalog, paths);
  const lists = pageLists(catalog, summaries);
  // Each list's item hashes (the manifest's), made once: they key the list's pieces too.
  const hashOfItem = new Map(
    catalog.tools.map((t) => [summaries.json.get(t.slug)!, texts.bySlug.get(t.slug)!.summaryHash]),
  );
  const listItemHashes = lists.map((list) => list.items.map((item) => hashOfItem.get(item)!));
  // Each list and the catalog body cut into pieces where their tools' slugs say (E2): one hash per slug.
  const keyHash = (slug: string) => texts.bySlug.get(slug)!.slugHash;
  const keys = listKeys(catalog);
  const listPieces = lists.map((list, i) =>
    piecesOf(list.items, cutPieces(keys[i]!, LIST_PIECES, keyHash), { itemHashes: listItemHashes[i]!, ...pieceIds }),
  );
  const catalogBody = renderCatalogBody(catalog, software.details, paths, keyHash);
  // A list's pieces name its items' bytes: the same ids, the same run.
  const listKey = (i: number) => sha1(listPieces[i]!.map((p) => p.id).join(","));
  // The unfiltered list (the first) holds every summary in catalog order: its key is theirs.
  const search = renderSearch(catalog, summaries, paths, listKey(0));
  const files: OutputFile[] = [
    // each list once, in both layouts: hosts of a runs build answer pages from these (L2), the R2 upload stores them
    ...listRunFiles(lists, listKey),
    // before the catalog body, whose check asks which details were rendered
    ...software.files,
    renderCategories(catalog, paths),
    ...renderRankings(catalog, paths, software.details),
    search.none,
    catalogBody,
    ...renderErrors(catalog, paths),
    renderOpenApi(catalog, table, paths),
    ...renderDocsPage(catalog, table, paths),
    renderLlmsTxt(catalog, table, paths),
    lazyFile(paths.routeTable, routeTableKey(table), () => `${JSON.stringify(table, null, 2)}\n`),
    renderSchemaTable(table),
    // a build record: what the MCP servers' find_software and several-word search read (never served by URL)
    ...renderFindIndex(
      catalog,
      keyHash,
      catalog.tools.map((t) => texts.bySlug.get(t.slug)!.findRow),
    ),
    ...Object.values(adapters).flatMap((adapt) => adapt(table, build)),
  ];
  return {
    files,
    groups: [search.answers],
    lists,
    listItemHashes,
    checkList: listChecker(catalog, summaries),
    isServed: servedFileFilter(table),
    pageTemplate: paths.page,
    bodyDir: `${table.basePath.slice(1)}/`,
    maxLimit: MAX_LIMIT,
    hashTree: {
      basePath: table.basePath,
      rootFile: paths.syncRoot,
      shardFile: paths.syncShard,
      pieceFile: paths.syncPiece,
    },
    pieces: {
      lists: listPieces,
      bodies: [{ target: catalogBody.target!, parts: catalogBody.parts }],
      files: () => {
        // Where each list piece starts, to render its body when a writer needs it (a kept piece is never rendered).
        const starts = new Map<string, [list: number, start: number, items: number]>();
        listPieces.forEach((pieces, list) => {
          let at = 0;
          for (const piece of pieces) {
            if (!starts.has(piece.id)) starts.set(piece.id, [list, at, piece.items]);
            at += piece.items;
          }
        });
        const catalogPieces = catalogBody.parts().flatMap((part) => ("pieces" in part ? part.pieces : []));
        return pieceFiles(
          paths.syncPiece,
          [...listPieces.flat(), ...catalogPieces],
          (id) => {
            const at = starts.get(id);
            if (at) return pieceBody(lists[at[0]]!.items.slice(at[1], at[1] + at[2]));
            return catalogBody.pieceBody(id)!;
          },
          (id) => (starts.has(id) ? undefined : catalogBody.pieceKey(id)),
        );
      },
      recall: catalogBody.recallFrom,
    },
  };
}

/**
 * The code and schemas a build runs (scripts/ but the catalog generator, which never shapes output; schemas/; the
 * locked dependencies): when they change, the same content may build other output or other errors.
 */
function codeHash(): string {
  const listed = (dir: string, pattern: RegExp) =>
    filesUnder(PROJECT_ROOT, dir).filter((file) => pattern.test(file.slice(dir.length + 1)));
  const files = [
    ...listed("scripts", /^(?!content\/generate\.ts$).*\.(ts|mjs|cjs)$/),
    ...listed("schemas", /\.json$/),
    "package-lock.json",
  ].sort();
  const hash = createHash("sha1");
  for (const file of files) hash.update(file).update(hashOfFile(join(PROJECT_ROOT, file)));
  return hash.digest("base64url");
}

/** Files under `dir`, relative to `root`. A walk: a process's first recursive readdirSync has a start-up cost. */
function filesUnder(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(root, path) : [path];
  });
}

/** Builds outDir from contentDir. Throws ContentErrors (every content error at once) before touching outDir. */
export async function build({
  contentDir,
  outDir,
  full = false,
  compress = false,
  wait = true,
  onNotice,
  onProgress,
  backgroundCleanup = false,
  strict = false,
  printsWarnings = true,
  layout: listLayout = "pages",
}: BuildOptions): Promise<BuildResult> {
  // process.hrtime, not performance: the performance global loads ten of Node's modules, which a cold start pays.
  const started = process.hrtime.bigint();
  // A folder a build must not touch is refused before any work (and checked again under the lock).
  const store = await inspectOutput(outDir, contentDir);
  const code = codeHash();
  const remembered = full ? emptyContentCache() : readContentCache(store.dir, code);
  const raw = await loadContent(contentDir, remembered.files);
  const contentFiles = 1 + raw.categories.length + raw.tools.length;
  // Another number of files than the last good build's (or none before): the lists change length and are written
  // whole, by a thread started now so that its start-up overlaps validation and rendering.
  const pageWriters = contentFiles !== remembered.count && listLayout === "pages" ? startPageWriters() : undefined;
  try {
    const validation = validateContent(raw);
    if (!validation.ok) throw new ContentErrors(validation.errors);
    const contentWarnings = findPlaceholders(raw.site, raw.categories, raw.tools);
    if (strict && contentWarnings.length > 0) {
      throw new ContentErrors(
        contentWarnings,
        `${contentWarnings.length} placeholder${contentWarnings.length === 1 ? "" : "s"} (errors under --strict)`,
      );
    }
    const catalog = deriveCatalog(validation.content);
    // The one layout of this build: the route table and every renderer name their files with it.
    const paths = layout(catalog.site.basePath);
    const table = buildRouteTable(catalog.site, paths);
    // What each tool's file alone renders to, recalled with the files that did not change (render/tool-texts.ts).
    const texts = catalogTexts(catalog, raw.tools);
    const pieceIds = { known: full ? new Map() : readPieceIds(store.dir, code), made: new Map() };
    const site = renderSite(catalog, table, paths, { layout: listLayout, compress }, texts, pieceIds);
    // What codeHash and the renderers hashed (package files: renderDocsPage), remembered for the next build.
    saveFileHashes();
    const written = await writeOutput(outDir, site, {
      // Options that change output: another value means a full build.
      fingerprint: sha1(JSON.stringify({ code, compress, layout: listLayout })),
      compress,
      layout: listLayout,
      full,
      contentDir,
      wait,
      onNotice,
      backgroundCleanup,
      pageWriters,
      onProgress: (n) => onProgress?.(`wrote ${formatCount(n)} files…`),
    });
    // After publication (it writes only when something was read anew, rendered anew or went away).
    texts.remember();
    writeContentCache(store.dir, code, raw.known, remembered, contentFiles);
    writePieceIds(store.dir, code, pieceIds.made, pieceIds.known);
    const longestList = Math.max(...site.lists.map((l) => l.items.length));
    // What a file host would be given: the served files (npm run export adds a 404 page at most).
    const warnings = hostLimitWarnings({
      files: written.counts.served,
      bytes: written.bytes - written.counts.recordBytes,
      maxFilesPerDir: (longestList + 1) * (compress ? 3 : 1),
    });
    const shown = checkWarnings(
      store.dir,
      [raw.categories, raw.tools, raw.site ? [raw.site] : []],
      contentWarnings,
      warnings,
      remembered.files,
    );
    if (printsWarnings) shown.remember();
    return {
      ...written,
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
      tools: catalog.tools.length,
      categories: catalog.categories.length,
      contentFiles,
      contentRecalled: raw.recalled,
      contentWarnings,
      warnings,
      warningHistory: shown.history,
      layout: listLayout,
      compressed: compress,
    };
  } finally {
    pageWriters?.close();
  }
}

/**
 * The line a build ends with, in the words every command counts in (docs/hosts/layout.md#counting-a-build): an
 * incremental build says what changed against the build it replaced, never what it wrote to get there.
 */
export function builtLine(result: BuildResult, out: string): string {
  const { served, records, recordBytes, changes } = result.counts;
  const bytes = formatBytes(result.bytes - recordBytes);
  const tree =
    `${formatCount(served)} served files (${bytes}${result.compressed ? " with their .br and .gz copies" : ""}) ` +
    `and ${formatCount(records)} build records`;
  const what = !changes
    ? `${tree}, from ${result.tools} tools and ${result.categories} categories`
    : changes.changed + changes.added + changes.removed === 0
      ? `no served file changed against the build it replaced; ${tree} in all`
      : `${formatCount(changes.changed)} served files changed, ${formatCount(changes.added)} added, ` +
        `${formatCount(changes.removed)} removed against the build it replaced; ${tree} in all`;
  const kind = result.layout === "runs" ? "runs layout: no list pages; " : "";
  return `built ${out}/ in ${result.seconds.toFixed(2)} s (${kind}${changes ? "" : `${result.mode}, `}${result.generation}): ${what}`;
}
