// The nginx adapter's files for the tiny fixture, written without a build: the pinned config's unit test and the
// `nginx -t` integration test read the same table.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { buildRouteTable } from "../../../../scripts/api/contract/build-route-table.ts";
import type { RouteTable } from "../../../../scripts/api/runtime/route-table.ts";
import { loadContent } from "../../../../scripts/content/load.ts";
import { validateContent } from "../../../../scripts/content/validate.ts";
import type { AdapterBuild } from "../../../../scripts/hosts/adapter-build.ts";
import { NGINX_SERVER_CONF, nginxAdapter } from "../../../../scripts/hosts/nginx/adapter.ts";
import { deriveCatalog } from "../../../../scripts/model/derive.ts";
import { fixture } from "../../fs/dirs.ts";

/** The tiny fixture's route table, derived in memory. */
export async function tinyTable(): Promise<RouteTable> {
  const result = validateContent(await loadContent(fixture("tiny")));
  if (!result.ok) throw new Error("the tiny fixture no longer validates");
  return buildRouteTable(deriveCatalog(result.content).site);
}

/** The adapter's files for a build of `build`'s kind written into a folder that stands in for dist/, server.conf
 *  through `edit`. */
export async function writeAdapterOutput(
  dir: string,
  table: RouteTable,
  edit = (body: string) => body,
  build: AdapterBuild = { layout: "pages", compress: false },
): Promise<void> {
  for (const file of nginxAdapter(table, build)) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.path === NGINX_SERVER_CONF ? edit(String(file.body)) : file.body);
  }
}
