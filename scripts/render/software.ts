// GET /software/{slug} bodies, and the SoftwareSummary items the list pages are made of.
import { createHash } from "node:crypto";
import type { SoftwareDetail, SoftwareSummary } from "../api/contract/response-schemas.ts";
import { fill, type RouteLayout } from "../api/runtime/route-table.ts";
import type { Catalog, Tool } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { json, lazyJsonFile, type OutputFile } from "./output.ts";

// Field order is the contract's (H5); editorial fields never get here.
export function toSummary(t: Tool): SoftwareSummary {
  return {
    name: t.name,
    slug: t.slug,
    shortDescription: t.shortDescription,
    url: t.url,
    websiteUrl: t.websiteUrl,
    rating: t.rating,
    hasFreePlan: t.hasFreePlan,
    hasMcpServer: t.hasMcpServer,
    hasApi: t.hasApi,
    categories: t.categorySlugs,
  };
}

export function toDetail(t: Tool): SoftwareDetail {
  return {
    name: t.name,
    slug: t.slug,
    shortDescription: t.shortDescription,
    url: t.url,
    websiteUrl: t.websiteUrl,
    logoUrl: t.logoUrl,
    rating: t.rating,
    hasFreePlan: t.hasFreePlan,
    freeTrialDays: t.freeTrialDays,
    moneyBackDays: t.moneyBackDays,
    lowestPaidPrice: t.lowestPaidPrice,
    pricingPlans: t.pricingPlans.map((p) => ({
      name: p.name,
      price: p.price,
      billing: p.billing,
      features: p.features,
    })),
    hasApi: t.hasApi,
    hasMcpServer: t.hasMcpServer,
    hasZapier: t.hasZapier,
    hasMake: t.hasMake,
    pros: t.pros,
    cons: t.cons,
    pricingLastVerified: t.pricingLastVerified,
  };
}

/** Each tool's summary serialized once (list pages only join these strings), and its check, made once. */
export interface Summaries {
  json: Map<string, string>;
  /** SHA-1 of every summary's JSON in catalog order: what keys the bodies made from all of them (search) */
  all: () => string;
  check: (slug: string) => void;
}

export function serializeSummaries(catalog: Catalog): Summaries {
  const values = new Map(catalog.tools.map((t) => [t.slug, toSummary(t)]));
  const checked = new Set<string>();
  const serialized = new Map([...values].map(([slug, value]) => [slug, json(value)]));
  let all: string | undefined;
  return {
    json: serialized,
    all: () => (all ??= sha1OfLines(serialized.values())),
    check: (slug) => {
      if (checked.has(slug)) return;
      assertValid("items/software-summary.schema.json", values.get(slug), `summary of ${slug}`);
      checked.add(slug);
    },
  };
}

/** The sha1 of `lines` joined by newlines, without joining them: one string of every summary is fresh memory a
 *  rebuild would touch only to hash it. */
function sha1OfLines(lines: Iterable<string>): string {
  const hash = createHash("sha1");
  let first = true;
  for (const line of lines) {
    if (!first) hash.update("\n");
    hash.update(line);
    first = false;
  }
  return hash.digest("base64url");
}

/** The tools whose detail a build renders (its key changed, or there is no previous build): see renderCatalogBody. */
export interface RenderedDetails {
  rendered: (slug: string) => boolean;
}

/** A catalog body item: the tool's detail and its categories. */
// Added to the detail it is made of, not spread into a copy of it: a copy per tool made the catalog body's rendering
// slower and less steady.
export const toCatalogBodyItem = (t: Tool) => Object.assign(toDetail(t), { categories: t.categorySlugs });

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
