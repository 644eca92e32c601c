// What a build renders from each tool's content file alone, kept with the file in the content cache (KnownFile.memo) so
// that a rebuild makes it again only for the files that changed: the tool's summary (the lists' item), that item's hash
// (the manifest's), its find-index row and its slug's hash (where pieces are cut). A price edit to one of 15,384 tools
// made all four for every tool, about 100 ms of a 1 s rebuild (reading them back costs about 25). A summary names the
// site's address and the tool's categories in catalog order, a find row the categories' positions: the texts hold under
// a context (the site's address and every category slug in catalog order), and are made again for every tool when it
// changes. The code that made them is the cache's own key: other code, and no memo is read.
import type { ContentFile } from "../content/load.ts";
import { sha1 } from "../launcher/file-hashes.cjs";
import type { Catalog, Tool } from "../model/derive.ts";
import { findRowTexts } from "../model/find-index.ts";
import { findIndexToolOf } from "./find-index.ts";
import { json } from "./output.ts";
import { keyHash } from "./pieces.ts";
import { toSummary } from "./software.ts";

/** The hash of a list item the manifest keeps (base64url SHA-1): io/manifest.ts names its items with it. */
export const listItemHash = sha1;

export interface ToolTexts {
  /** what the texts were made under: the site's address and every category slug in catalog order, hashed */
  context: string;
  /** the tool's SoftwareSummary as JSON */
  summary: string;
  /** listItemHash(summary) */
  summaryHash: string;
  /** its row of the find index, as JSON */
  findRow: string;
  /** keyHash(slug) */
  slugHash: number;
}

/** The texts of every tool, by slug: each one kept with its unchanged file recalled, the others made. */
export interface CatalogTexts {
  bySlug: Map<string, ToolTexts>;
  /** keeps the texts made with their files (a good build's last step, before the content cache is written) */
  remember: () => void;
}

export function catalogTexts(catalog: Catalog, files: readonly ContentFile[]): CatalogTexts {
  const slugs = catalog.categories.map((c) => c.slug);
  const context = sha1(`${catalog.site.siteUrl}\n${slugs.join(",")}`);
  const fileOf = new Map(files.map((f) => [f.source, f]));
  const bySlug = new Map<string, ToolTexts>();
  const missing: Tool[] = [];
  for (const tool of catalog.tools) {
    const memo = (tool.source === undefined ? undefined : fileOf.get(tool.source)?.known?.memo) as
      | ToolTexts
      | undefined;
    if (memo?.context === context) bySlug.set(tool.slug, memo);
    else missing.push(tool);
  }
  const rows = findRowTexts(missing.map(findIndexToolOf), slugs);
  missing.forEach((tool, i) => {
    const summary = json(toSummary(tool));
    bySlug.set(tool.slug, {
      context,
      summary,
      summaryHash: listItemHash(summary),
      findRow: rows[i]!,
      slugHash: keyHash(tool.slug),
    });
  });
  return {
    bySlug,
    remember: () => {
      for (const tool of missing) {
        const known = tool.source === undefined ? undefined : fileOf.get(tool.source)?.known;
        if (!known) continue;
        // The same object the build used: keeping it costs no memory.
        known.memo = bySlug.get(tool.slug)!;
        known.memoRenewed = true;
      }
    },
  };
}
