// The objects bodies hold are made from the contract's one field list each (H5), and the zod schemas are built from
// the same lists: a field added to a list is in the schema and in the bodies at once.
import { describe, expect, it } from "vitest";
import {
  Category,
  ExportedSoftware,
  RankedTool,
  SoftwareDetail,
  SoftwareSummary,
} from "../../../scripts/api/contract/response-schemas.ts";
import { layout } from "../../../scripts/api/runtime/route-table.ts";
import { loadContent } from "../../../scripts/content/load.ts";
import { PricingPlan } from "../../../scripts/content/schema.ts";
import { validateContent } from "../../../scripts/content/validate.ts";
import { deriveCatalog, type Tool } from "../../../scripts/model/derive.ts";
import { toCategory } from "../../../scripts/render/categories.ts";
import { renderRankings } from "../../../scripts/render/rankings.ts";
import { toCatalogBodyItem, toDetail, toSummary } from "../../../scripts/render/software.ts";
import {
  CATALOG_BODY_ITEM_FIELDS,
  CATEGORY_FIELDS,
  PRICING_PLAN_FIELDS,
  RANKED_TOOL_FIELDS,
  SOFTWARE_DETAIL_FIELDS,
  SOFTWARE_SUMMARY_FIELDS,
} from "../../../scripts/schemas/field-lists.ts";
import { fixture } from "../../helpers/fs/dirs.ts";

async function tinyCatalog() {
  const validation = validateContent(await loadContent(fixture("tiny")));
  if (!validation.ok) throw new Error("the tiny fixture does not validate");
  return deriveCatalog(validation.content);
}

/** The same object with its keys in reverse order, as a content file may write them. */
const reversed = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).reverse()) as T;

describe("the contract's field lists", () => {
  it("are the keys of the zod schemas, in order", () => {
    expect(Object.keys(PricingPlan.shape)).toEqual(PRICING_PLAN_FIELDS);
    expect(Object.keys(SoftwareSummary.shape)).toEqual(SOFTWARE_SUMMARY_FIELDS);
    expect(Object.keys(SoftwareDetail.shape)).toEqual(SOFTWARE_DETAIL_FIELDS);
    expect(Object.keys(ExportedSoftware.shape)).toEqual(CATALOG_BODY_ITEM_FIELDS);
    expect(Object.keys(Category.shape)).toEqual(CATEGORY_FIELDS);
    expect(Object.keys(RankedTool.shape)).toEqual(RANKED_TOOL_FIELDS);
  });

  it("order every body's objects, whatever the order of the content file's keys; editorial fields never get in", async () => {
    const catalog = await tinyCatalog();
    const tool = catalog.tools.find((t) => t.pricingPlans.length > 0)!;
    const shuffled: Tool = reversed({
      ...tool,
      internalNotes: "editorial",
      pricingPlans: tool.pricingPlans.map(reversed),
    });
    expect(Object.keys(toSummary(shuffled))).toEqual(SOFTWARE_SUMMARY_FIELDS);
    const detail = toDetail(shuffled);
    expect(Object.keys(detail)).toEqual(SOFTWARE_DETAIL_FIELDS);
    for (const plan of detail.pricingPlans) expect(Object.keys(plan)).toEqual(PRICING_PLAN_FIELDS);
    expect(JSON.stringify(detail)).toBe(JSON.stringify(toDetail(tool)));
    expect(Object.keys(toCatalogBodyItem(shuffled))).toEqual(CATALOG_BODY_ITEM_FIELDS);
    // The categories a body shows are the tool's in O1 order (D4), not its content file's.
    expect(toSummary(shuffled).categories).toEqual(tool.categorySlugs);
    expect(Object.keys(toCategory(reversed(catalog.categories[0]!)))).toEqual(CATEGORY_FIELDS);
    const ranking = renderRankings(catalog, layout(catalog.site.basePath)).next();
    const body = JSON.parse(String(ranking.done ? "" : ranking.value.body)) as { data: object[] };
    expect(Object.keys(body.data[0]!)).toEqual(RANKED_TOOL_FIELDS);
  });
});
