// D1–D6 recomputed from the responses and the content files; H5 exact fields and no editorial text.
import { beforeAll, expect } from "vitest";
import { suiteContext } from "../helpers/conformance/context.ts";
import { expectKeys, parseJson } from "../helpers/conformance/expect-response.ts";
import { fetchSnapshot, type Snapshot } from "../helpers/conformance/fetch-all.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import { compareByName } from "../helpers/conformance/order.ts";
import { mapPool, POOL } from "../helpers/conformance/pool.ts";
import {
  BEST_META_KEYS,
  CATEGORIES_META_KEYS,
  CATEGORY_KEYS,
  DETAIL_KEYS,
  type Detail,
  ENVELOPE_KEYS,
  LIST_META_KEYS,
  PLAN_KEYS,
  RANKED_KEYS,
  SUMMARY_KEYS,
  TOP_TOOL_KEYS,
} from "../helpers/conformance/shapes.ts";

const { catalog } = suiteContext();
const base = catalog.basePath;

/** D3: 0 to 5 with at most one decimal, as JSON writes it */
const isRating = (r: unknown) =>
  r === null || (typeof r === "number" && r >= 0 && r <= 5 && /^\d(\.\d)?$/.test(String(r)));

/** D6: a real calendar date, not just the shape */
function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** D5: highest rating first, null ratings last, ties by O1 */
function highestRated(details: Detail[]): Detail | undefined {
  return [...details].sort((a, b) => {
    if (a.rating !== b.rating) {
      if (a.rating === null) return 1;
      if (b.rating === null) return -1;
      return b.rating - a.rating;
    }
    return compareByName(a, b);
  })[0];
}

forEachHost(({ test, client }) => {
  let snap: Snapshot;
  /** raw bodies of every response the suite saw here, for H5's text scan */
  const bodies: { target: string; text: string }[] = [];
  beforeAll(async () => {
    snap = await fetchSnapshot(client(), catalog);
    const targets = [
      `${base}/software?limit=100`,
      `${base}/categories`,
      ...catalog.tools.map((t) => `${base}/software/${t.slug}`),
      ...catalog.categories.map((c) => `${base}/best/${c.slug}`),
      ...catalog.categories.map((c) => `${base}/software?category=${c.slug}&limit=100`),
      `${base}/software/nope`,
      `${base}/nope`,
      `${base}/software?limit=0`,
      `${base}/software?offset=x`,
      `${base}/software?offset=999999`,
      `${base}/software?category=nope`,
    ];
    bodies.push(
      ...(await mapPool(targets, POOL, async (target) => ({ target, text: (await client().get(target)).text }))),
    );
  });

  test("D1 pricing plans are { name, price, billing, features } with a number-or-null price", () => {
    for (const detail of snap.details.values()) {
      detail.pricingPlans.forEach((plan, i) => {
        const where = `${detail.slug}.pricingPlans[${i}]`;
        expectKeys(plan, PLAN_KEYS, where);
        expect(plan.price === null || (typeof plan.price === "number" && plan.price >= 0), `${where}.price`).toBe(true);
        expect(["monthly", "annual", "custom"], `${where}.billing`).toContain(plan.billing);
        expect(
          plan.features.every((f) => typeof f === "string"),
          `${where}.features`,
        ).toBe(true);
      });
    }
  });

  test("D1 a tool's detail publishes its content's values", () => {
    const published = [
      "name",
      "shortDescription",
      "websiteUrl",
      "logoUrl",
      "rating",
      "freeTrialDays",
      "moneyBackDays",
      "pricingPlans",
      "hasApi",
      "hasMcpServer",
      "hasZapier",
      "hasMake",
      "pros",
      "cons",
      "pricingLastVerified",
    ] as const;
    expect(snap.details.size).toBe(catalog.tools.length);
    for (const tool of catalog.tools) {
      const detail = snap.details.get(tool.slug)!;
      for (const field of published) expect(detail[field], `${tool.slug}.${field}`).toEqual(tool[field]);
    }
  });

  test("D2 hasFreePlan and lowestPaidPrice are recomputed from pricingPlans", () => {
    for (const d of snap.details.values()) {
      const paid = d.pricingPlans.map((p) => p.price).filter((p): p is number => p !== null && p > 0);
      expect(d.hasFreePlan, `${d.slug}.hasFreePlan`).toBe(d.pricingPlans.some((p) => p.price === 0));
      expect(d.lowestPaidPrice, `${d.slug}.lowestPaidPrice`).toBe(paid.length ? Math.min(...paid) : null);
    }
  });

  test("D2 each SoftwareSummary agrees with its detail", () => {
    for (const s of snap.summaries) {
      const d = snap.details.get(s.slug)!;
      const { categories, ...shared } = s;
      expect(shared, s.slug).toEqual({
        name: d.name,
        slug: d.slug,
        shortDescription: d.shortDescription,
        url: d.url,
        websiteUrl: d.websiteUrl,
        rating: d.rating,
        hasFreePlan: d.hasFreePlan,
        hasMcpServer: d.hasMcpServer,
        hasApi: d.hasApi,
      });
    }
  });

  test("D3 rating is null or a number from 0 to 5 with at most one decimal", () => {
    for (const d of snap.details.values()) expect(isRating(d.rating), `${d.slug}.rating = ${d.rating}`).toBe(true);
    for (const s of snap.summaries) expect(isRating(s.rating), `${s.slug}.rating = ${s.rating}`).toBe(true);
  });

  test("D4 summary categories are the tool's category slugs, ordered by category name", () => {
    for (const s of snap.summaries) {
      const expected = catalog.categories
        .filter((c) => catalog.toolBySlug.get(s.slug)!.categories.includes(c.slug))
        .map((c) => c.slug);
      expect(s.categories, s.slug).toEqual(expected);
    }
  });

  test("D5 toolCount and mcpReadyCount count the category's tools", () => {
    for (const c of snap.categories.data) {
      const tools = snap.summaries.filter((t) => t.categories.includes(c.slug));
      expect(c.toolCount, `${c.slug}.toolCount`).toBe(tools.length);
      expect(c.mcpReadyCount, `${c.slug}.mcpReadyCount`).toBe(
        tools.filter((t) => snap.details.get(t.slug)!.hasMcpServer).length,
      );
    }
  });

  test("D5 topTool is the editorial pick (content topToolPick), else the highest-rated tool", () => {
    let picks = 0;
    for (const c of snap.categories.data) {
      const pick = catalog.categoryBySlug.get(c.slug)!.topToolPick;
      if (pick !== undefined) picks++;
      const members = snap.summaries.filter((t) => t.categories.includes(c.slug)).map((t) => snap.details.get(t.slug)!);
      const top = pick !== undefined ? snap.details.get(pick) : highestRated(members);
      expect(c.topTool, `${c.slug}.topTool`).toEqual(top ? { name: top.name, slug: top.slug } : null);
    }
    // the catalog must exercise both branches
    expect(picks, "editorial picks").toBeGreaterThan(0);
    expect(picks, "rating picks").toBeLessThan(snap.categories.data.length);
  });

  test("D6 url and bestListUrl are built from the site url of content/site.json", () => {
    const urls = [
      ...snap.summaries.map((s) => [`summary ${s.slug}.url`, s.url]),
      ...[...snap.details.values()].map((d) => [`detail ${d.slug}.url`, d.url]),
      ...snap.categories.data.map((c) => [`category ${c.slug}.bestListUrl`, c.bestListUrl]),
      ...[...snap.best.values()].flatMap((b) => b.data.map((r) => [`best ${b.meta.category}/${r.slug}.url`, r.url])),
    ];
    const site = catalog.siteUrl.replace(/\/$/, "");
    for (const [where, url] of urls) {
      expect(url!.startsWith(`${site}/`), `${where} = ${url}`).toBe(true);
      expect(() => new URL(url!), where).not.toThrow();
    }
    for (const s of snap.summaries) expect(s.url, "a tool's url names the tool").toContain(s.slug);
    for (const c of snap.categories.data) expect(c.bestListUrl, "a best-of url names the category").toContain(c.slug);
  });

  test("D6 pricingLastVerified is a real calendar date YYYY-MM-DD or null", () => {
    for (const d of snap.details.values()) {
      if (d.pricingLastVerified !== null)
        expect(isCalendarDate(d.pricingLastVerified), `${d.slug}: ${d.pricingLastVerified}`).toBe(true);
    }
  });

  test("H5 every body has exactly the contract's fields, in its order", () => {
    expectKeys(snap.categories, ENVELOPE_KEYS, "/categories");
    expectKeys(snap.categories.meta, CATEGORIES_META_KEYS, "/categories meta");
    for (const c of snap.categories.data) {
      expectKeys(c, CATEGORY_KEYS, `category ${c.slug}`);
      if (c.topTool !== null) expectKeys(c.topTool, TOP_TOOL_KEYS, `category ${c.slug}.topTool`);
    }
    for (const s of snap.summaries) expectKeys(s, SUMMARY_KEYS, `summary ${s.slug}`);
    for (const d of snap.details.values()) expectKeys(d, DETAIL_KEYS, `detail ${d.slug}`);
    for (const b of snap.best.values()) {
      expectKeys(b, ENVELOPE_KEYS, `best ${b.meta.category}`);
      expectKeys(b.meta, BEST_META_KEYS, `best ${b.meta.category} meta`);
      for (const r of b.data) expectKeys(r, RANKED_KEYS, `best ${b.meta.category}/${r.slug}`);
    }
    for (const { target, text } of bodies) {
      const body = parseJson(text, target) as Record<string, unknown>;
      if ("error" in body) continue; // H4, checked in headers.test.ts
      expectKeys(body, target.includes("/software/") ? ["data"] : ENVELOPE_KEYS, target);
      if (target.includes("/software?")) expectKeys(body.meta, LIST_META_KEYS, `${target} meta`);
    }
  });

  test("H5 no internal or editorial note appears in any response", () => {
    expect(catalog.secrets.length, "the catalog has notes to leak").toBeGreaterThan(0);
    expect(bodies.length).toBeGreaterThan(catalog.tools.length);
    for (const { target, text } of bodies) {
      expect(text, target).not.toMatch(/internalNotes|editorialNotes/);
      const strings: string[] = [];
      const walk = (v: unknown): void => {
        if (typeof v === "string") strings.push(v);
        else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
      };
      walk(parseJson(text, target));
      for (const secret of catalog.secrets)
        expect(
          strings.some((s) => s.includes(secret)),
          `${target} leaks "${secret}"`,
        ).toBe(false);
    }
  });
});
