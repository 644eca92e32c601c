// Reading a build's route table (dist/routes.json) from disk: every Node runtime starts here (the server, the MCP
// server, the R2 upload). The Worker gets its table bundled instead.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { layout, type RouteTable } from "./runtime/route-table.ts";

export async function loadRouteTable(distDir: string): Promise<RouteTable> {
  const path = join(distDir, layout("/").routeTable);
  try {
    return JSON.parse(await readFile(path, "utf8")) as RouteTable;
  } catch (e) {
    throw new Error(`${path} is missing or unreadable: run \`npm run build\` first (${(e as Error).message})`);
  }
}
