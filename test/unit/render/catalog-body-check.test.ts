// The catalog body's check validates its envelope and categories whole, and the items of the tools whose detail the
// build renders: an item whose detail was kept by its key was checked by the build that rendered it.
import { describe, expect, it } from "vitest";
import { layout } from "../../../scripts/api/runtime/route-table.ts";
import { loadContent } from "../../../scripts/content/load.ts";
import { validateContent } from "../../../scripts/content/validate.ts";
import { deriveCatalog } from "../../../scripts/model/derive.ts";
import { renderCatalogBody } from "../../../scripts/render/catalog-body.ts";
import { toCategory } from "../../../scripts/render/categories.ts";
import { renderSoftwareDetails, toCatalogBodyItem } from "../../../scripts/render/software.ts";
import { fixture } from "../../helpers/fs/dirs.ts";

async function tinyCatalog() {
  const validation = validateContent(await loadContent(fixture("tiny")));
  if (!validation.ok) throw new Error("the tiny fixture does not validate");
  return deriveCatalog(validation.content);
}

describe("the catalog body's check", () => {
  it("checks the item of a tool whose detail this build renders, and fails on a bad one", async () => {
    const catalog = await tinyCatalog();
    const bad = catalog.tools[1]!;
    Object.assign(bad, { rating: 99 }); // the schemas cap a rating at 5
    const paths = layout(catalog.site.basePath);
    const tools = renderSoftwareDetails(catalog, paths);
    const catalogBody = renderCatalogBody(catalog, tools.details, paths);
    expect(() => catalogBody.check?.()).not.toThrow(); // no detail rendered yet: only the envelope
    void tools.files[1]!.body; // the writer renders this tool's detail (its key changed)
    expect(tools.details.rendered(bad.slug)).toBe(true);
    expect(() => catalogBody.check?.()).toThrow(/catalog body item of .* breaks items\/exported-software/);
  });

  it("always checks the envelope and every category", async () => {
    const catalog = await tinyCatalog();
    Object.assign(catalog.categories[0]!, { name: "" });
    const paths = layout(catalog.site.basePath);
    const catalogBody = renderCatalogBody(catalog, renderSoftwareDetails(catalog, paths).details, paths);
    expect(() => catalogBody.check?.()).toThrow(/built catalog body breaks responses\/export-response/);
  });

  it("is made in pieces of whole items whose join is the JSON of the whole response", async () => {
    const catalog = await tinyCatalog();
    // Enough items for several pieces (a piece closes past 64 K characters).
    const one = catalog.tools[0]!;
    catalog.tools = Array.from({ length: 400 }, (_, i) => ({ ...one, slug: `${one.slug}-${i}` }));
    const paths = layout(catalog.site.basePath);
    const catalogBody = renderCatalogBody(catalog, renderSoftwareDetails(catalog, paths).details, paths);
    const pieces = [...catalogBody.pieces!()];
    expect(pieces.length).toBeGreaterThan(2);
    expect(catalogBody.body).toBe(
      JSON.stringify({
        data: { software: catalog.tools.map(toCatalogBodyItem), categories: catalog.categories.map(toCategory) },
        meta: { softwareCount: catalog.tools.length, categoryCount: catalog.categories.length },
      }),
    );
    // Every piece but the first starts an item or closes the list: none splits one.
    for (const piece of pieces.slice(1)) expect(piece).toMatch(/^(,\{"name"|\],"categories")/);
  });
});
