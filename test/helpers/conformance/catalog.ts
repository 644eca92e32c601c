// Catalog facts for the oracle, read straight from the content files and dist/routes.json (never from server code).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compareByName } from "./order.ts";

export interface ToolFacts {
  name: string;
  slug: string;
  categories: string[];
  websiteUrl: string;
  rating: number | null;
  pricingPlans: { name: string; price: number | null; billing: string; features: string[] }[];
  internalNotes?: string;
  [field: string]: unknown;
}

export interface CategoryFacts {
  name: string;
  slug: string;
  topToolPick?: string;
  editorialNotes?: string;
  /** slugs of its tools, in O1 order */
  members: string[];
}

/** a file served outside the base path at exactly its raw path (the docs page and what it loads) */
export interface AssetFacts {
  path: string;
  file: string;
  contentType: string;
}

export interface Catalog {
  siteUrl: string;
  cacheMaxAge: number;
  /** seconds of stale-while-revalidate; 0 when site.json leaves it out */
  cacheStaleWhileRevalidate: number;
  basePath: string;
  /** from dist/routes.json */
  assets: AssetFacts[];
  /** in O1 order */
  tools: ToolFacts[];
  /** in O1 order, all of them (also those with fewer than two tools) */
  categories: CategoryFacts[];
  toolBySlug: Map<string, ToolFacts>;
  categoryBySlug: Map<string, CategoryFacts>;
  /** the hash tree's shard files (`name.json`), as dist/v1/sync/index.json names them (E2): empty without one */
  syncShards: Set<string>;
  /** the pieces' files (`<id>.json`) the hash tree's shards name (E2): empty without a tree */
  syncPieces: Set<string>;
  /** every editorial-only text of the content: must never appear in output (H5) */
  secrets: string[];
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

function readSyncShards(indexFile: string): Set<string> {
  if (!existsSync(indexFile)) return new Set();
  const root = readJson(indexFile) as { data: Record<string, unknown> };
  return new Set(Object.keys(root.data).map((name) => `${name}.json`));
}

/** Every piece a shard names: a list's pieces, and those of a body's parts. */
function readSyncPieces(syncDir: string, shards: Set<string>): Set<string> {
  const pieces = new Set<string>();
  for (const shard of shards) {
    const { data } = readJson(join(syncDir, shard)) as {
      data: Record<string, { pieces?: [string][]; parts?: { pieces?: [string][] }[] }>;
    };
    for (const entry of Object.values(data))
      for (const [id] of [...(entry.pieces ?? []), ...(entry.parts ?? []).flatMap((p) => p.pieces ?? [])])
        pieces.add(`${id}.json`);
  }
  return pieces;
}
const readDir = <T>(dir: string): T[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => readJson(join(dir, f)) as T);

export function loadCatalog(contentDir: string, distDir: string): Catalog {
  const site = readJson(join(contentDir, "site.json")) as {
    siteUrl: string;
    cacheMaxAge?: number;
    cacheStaleWhileRevalidate?: number;
  };
  const routes = readJson(join(distDir, "routes.json")) as { basePath: string; assets?: AssetFacts[] };
  const tools = readDir<ToolFacts>(join(contentDir, "tools")).sort(compareByName);
  const categories = readDir<Omit<CategoryFacts, "members">>(join(contentDir, "categories"))
    .map((c) => ({ ...c, members: tools.filter((t) => t.categories.includes(c.slug)).map((t) => t.slug) }))
    .sort(compareByName);
  const secrets = [...tools.map((t) => t.internalNotes), ...categories.map((c) => c.editorialNotes)].filter(
    (s): s is string => typeof s === "string" && s.length > 0,
  );
  const syncDir = join(distDir, routes.basePath.slice(1), "sync");
  const syncShards = readSyncShards(join(syncDir, "index.json"));
  return {
    siteUrl: site.siteUrl,
    // the schema's default when site.json leaves it out
    cacheMaxAge: site.cacheMaxAge ?? 300,
    cacheStaleWhileRevalidate: site.cacheStaleWhileRevalidate ?? 0,
    basePath: routes.basePath,
    assets: routes.assets ?? [],
    tools,
    categories,
    toolBySlug: new Map(tools.map((t) => [t.slug, t])),
    categoryBySlug: new Map(categories.map((c) => [c.slug, c])),
    secrets,
    syncShards,
    syncPieces: readSyncPieces(syncDir, syncShards),
  };
}

/** Categories by how many tools they have: the edge cases Q5 and O4 need. Throws when the catalog lacks one. */
export function categoryWith(catalog: Catalog, what: "no tools" | "one tool" | "listed"): CategoryFacts {
  const found = catalog.categories.find((c) =>
    what === "no tools" ? c.members.length === 0 : what === "one tool" ? c.members.length === 1 : c.members.length >= 2,
  );
  if (!found) throw new Error(`the catalog has no category with ${what}: the sample catalog must cover this case`);
  return found;
}
