// GET /software/{slug} bodies, and the SoftwareSummary items the list pages are made of.
import type { ExportedSoftware, SoftwareDetail, SoftwareSummary } from "../api/contract/response-schemas.ts";
import { fill, type RouteLayout } from "../api/runtime/route-table.ts";
import type { PricingPlan } from "../content/schema.ts";
import type { Catalog, Tool } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import {
  CATALOG_BODY_ITEM_FIELDS,
  PRICING_PLAN_FIELDS,
  SOFTWARE_DETAIL_FIELDS,
  SOFTWARE_SUMMARY_FIELDS,
} from "../schemas/field-lists.ts";
import { lazyJsonFile, type OutputFile } from "./output.ts";
import { fieldPicker } from "./pick-fields.ts";

// Fields and their order are the contract's lists (H5); editorial fields never get here. Where a field is not the
// tool's own field of the same name:
/** a tool's categories in O1 order (D4), not as its content file lists them */
const categories = (t: Tool) => t.categorySlugs;
/** each plan's fields in the contract's order, whatever the content file's */
const toPlan = fieldPicker<PricingPlan, PricingPlan>(PRICING_PLAN_FIELDS, {});
const pricingPlans = (t: Tool) => t.pricingPlans.map((p) => toPlan(p));

export const toSummary = fieldPicker<Tool, SoftwareSummary>(SOFTWARE_SUMMARY_FIELDS, { categories });

export const toDetail = fieldPicker<Tool, SoftwareDetail>(SOFTWARE_DETAIL_FIELDS, { pricingPlans });

/** A catalog body item: the tool's detail and its categories. */
export const toCatalogBodyItem = fieldPicker<Tool, ExportedSoftware>(CATALOG_BODY_ITEM_FIELDS, {
  pricingPlans,
  categories,
});

/** Each tool's summary serialized once (list pages only join these strings), and its check, made once. */
export interface Summaries {
  json: Map<string, string>;
  check: (slug: string) => void;
}

/** `texts`: each tool's summary, by slug (render/tool-texts.ts makes them, or recalls them). */
export function serializeSummaries(catalog: Catalog, texts: ReadonlyMap<string, { summary: string }>): Summaries {
  const bySlug = new Map(catalog.tools.map((t) => [t.slug, t]));
  const checked = new Set<string>();
  // Only the text is kept: a summary object held for each tool until the build ends was garbage the collector
  // copied (twice) for nothing; the few a rebuild checks are made again.
  const serialized = new Map(catalog.tools.map((t) => [t.slug, texts.get(t.slug)!.summary]));
  return {
    json: serialized,
    check: (slug) => {
      if (checked.has(slug)) return;
      assertValid("items/software-summary.schema.json", toSummary(bySlug.get(slug)!), `summary of ${slug}`);
      checked.add(slug);
    },
  };
}

/** The tools whose detail a build renders (its key changed, or there is no previous build): see renderCatalogBody. */
export interface RenderedDetails {
  rendered: (slug: string) => boolean;
}

/**
 * A detail body is made from its tool's content file and the site's base address alone (url), so those two are its
 * key: a rebuild renders the details of the tools whose files changed, not a thousand. The key also names the tool's
 * categories in catalog order, which its catalog body item holds (renderCatalogBody).
 */
export function renderSoftwareDetails(
  catalog: Catalog,
  { tool }: RouteLayout,
): { files: OutputFile[]; details: RenderedDetails } {
  const site = JSON.stringify(catalog.site.siteUrl);
  const rendered = new Set<string>();
  const files = catalog.tools.map((t) =>
    lazyJsonFile(
      fill(tool, { slug: t.slug }),
      t.source && `${t.source} ${site} ${t.categorySlugs.join(",")}`,
      () => {
        rendered.add(t.slug);
        return { data: toDetail(t) };
      },
      (body) => void assertValid("responses/software-detail-response.schema.json", body, `tool ${t.slug}`),
      `${catalog.site.basePath}/software/${t.slug}`,
    ),
  );
  return { files, details: { rendered: (slug) => rendered.has(slug) } };
}
