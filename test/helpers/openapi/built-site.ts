// A freshly built site for the OpenAPI tests: dist/ of a catalog, the catalog itself (the oracle) and its route table.
import { join } from "node:path";
import { buildRouteTable } from "../../../scripts/api/contract/build-route-table.ts";
import { layout, type RouteTable } from "../../../scripts/api/runtime/route-table.ts";
import { build } from "../../../scripts/build.ts";
import { loadContent } from "../../../scripts/content/load.ts";
import { validateContent } from "../../../scripts/content/validate.ts";
import { type Catalog, deriveCatalog } from "../../../scripts/model/derive.ts";
import { fixture, tempDir } from "../fs/dirs.ts";

export interface BuiltSite {
  distDir: string;
  openapiPath: string;
  catalog: Catalog;
  table: RouteTable;
  remove(): Promise<void>;
}

/** OPENAPI_CONTENT overrides the catalog (e.g. content/ for the sample catalog); the tiny fixture by default. */
export const contentDir = () => process.env.OPENAPI_CONTENT ?? fixture("tiny");

export async function buildSite(content = contentDir()): Promise<BuiltSite> {
  const dir = await tempDir("msapi-openapi-");
  const distDir = join(dir.path, "dist");
  await build({ contentDir: content, outDir: distDir });
  const validation = validateContent(await loadContent(content));
  if (!validation.ok) throw new Error(`${content} does not validate`);
  const catalog = deriveCatalog(validation.content);
  const table = buildRouteTable(catalog.site);
  return { distDir, openapiPath: join(distDir, layout(table.basePath).openapi), catalog, table, remove: dir.remove };
}
