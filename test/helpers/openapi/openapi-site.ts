// The OpenAPI tests' site: a build (test/helpers/build/built-site.ts) with what its description is checked against,
// the catalog (the oracle) and its route table.
import { join, resolve } from "node:path";
import { buildRouteTable } from "../../../scripts/api/contract/build-route-table.ts";
import { layout, type RouteTable } from "../../../scripts/api/runtime/route-table.ts";
import { loadContent } from "../../../scripts/content/load.ts";
import { validateContent } from "../../../scripts/content/validate.ts";
import { type Catalog, deriveCatalog } from "../../../scripts/model/derive.ts";
import { type BuiltSite, buildSite } from "../build/built-site.ts";

export interface OpenapiSite extends BuiltSite {
  openapiPath: string;
  catalog: Catalog;
  table: RouteTable;
}

/** OPENAPI_CONTENT overrides the catalog (e.g. content/ for the sample catalog); the tiny fixture by default. */
export const openapiContent = () => (process.env.OPENAPI_CONTENT ? resolve(process.env.OPENAPI_CONTENT) : "tiny");

export async function buildOpenapiSite(content = openapiContent()): Promise<OpenapiSite> {
  const site = await buildSite({ content, prefix: "msapi-openapi-" });
  const validation = validateContent(await loadContent(site.content));
  if (!validation.ok) {
    await site.remove();
    throw new Error(`${site.content} does not validate`);
  }
  const catalog = deriveCatalog(validation.content);
  const table = buildRouteTable(catalog.site);
  return { ...site, openapiPath: join(site.dist, layout(table.basePath).openapi), catalog, table };
}
