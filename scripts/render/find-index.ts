// The find index (model/find-index.ts) as a build record: what find_software and several-word search read on the
// hosts that answer MCP, never served by URL. Keyed by what it is made of (the summaries, which hold every name, flag
// but two, rating and category list, and the rest of each tool's row), so a rebuild that changes none of them keeps
// it without making it.
import { sha1 } from "../launcher/file-hashes.cjs";
import type { Catalog } from "../model/derive.ts";
import { FIND_INDEX_FILE, findIndexText } from "../model/find-index.ts";
import { lazyFile, type OutputFile } from "./output.ts";
import type { Summaries } from "./software.ts";

export function renderFindIndex(catalog: Catalog, summaries: Summaries): OutputFile {
  const tools = () =>
    catalog.tools.map((t) => ({
      name: t.name,
      hasMcpServer: t.hasMcpServer,
      hasApi: t.hasApi,
      hasZapier: t.hasZapier,
      hasMake: t.hasMake,
      hasFreePlan: t.hasFreePlan,
      lowestPaidPrice: t.lowestPaidPrice,
      rating: t.rating,
      categories: t.categorySlugs,
    }));
  const slugs = catalog.categories.map((c) => c.slug);
  // What the summaries do not carry: the Zapier and Make flags and the lowest paid price.
  const rest = catalog.tools.map((t) => `${+t.hasZapier}${+t.hasMake}${t.lowestPaidPrice}`).join(",");
  const key = `find ${summaries.all()} ${sha1(`${slugs.join(",")}\n${rest}`)}`;
  return lazyFile(FIND_INDEX_FILE, key, () => findIndexText(tools(), slugs));
}
