// Consuming the API from TypeScript: types generated from /v1/openapi.json by openapi-typescript, calls by openapi-fetch.
//   npx openapi-typescript https://api.example.com/v1/openapi.json -o api.ts
import createClient from "openapi-fetch";
import type { components, paths } from "./api.ts";

export type SoftwareSummary = components["schemas"]["SoftwareSummary"];
export type SoftwareDetail = components["schemas"]["SoftwareDetail"];
export type RankedTool = components["schemas"]["RankedTool"];
export type CatalogClient = ReturnType<typeof createCatalogClient>;

/** `baseUrl` carries the version path, like the description's `servers` entry: https://api.example.com/v1 */
export function createCatalogClient(baseUrl: string) {
  return createClient<paths>({ baseUrl });
}

/**
 * Every tool of a category (or of the catalog), `limit` per request (100 by default), in the API's name order. Each
 * request's offset is a multiple of `limit`, so on a file host an aligned export's pages are enough.
 */
export async function allToolsOf(
  client: CatalogClient,
  category: string | undefined,
  limit = 100,
): Promise<SoftwareSummary[]> {
  const tools: SoftwareSummary[] = [];
  for (let offset = 0; ; ) {
    const query = category === undefined ? { limit, offset } : { category, limit, offset };
    const { data, error } = await client.GET("/software", { params: { query } });
    // error.error.code is typed: "invalid_limit" | "invalid_offset" | "offset_out_of_range" | "category_not_found"
    if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
    tools.push(...data.data);
    offset += data.data.length;
    if (data.data.length === 0 || offset >= data.meta.total) return tools;
  }
}

/** One tool's detail, or null when no tool has this slug. */
export async function toolDetail(client: CatalogClient, slug: string): Promise<SoftwareDetail | null> {
  const { data, error } = await client.GET("/software/{slug}", { params: { path: { slug } } });
  if (error?.error.code === "software_not_found") return null;
  if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
  return data.data;
}

/** The tool with the cheapest paid plan in a category (null prices rank last). */
export async function cheapestIn(client: CatalogClient, category: string): Promise<RankedTool | undefined> {
  const { data, error } = await client.GET("/best/{categorySlug}", { params: { path: { categorySlug: category } } });
  if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
  return data.data[0];
}
