// The route table and host configs are patterns: their bytes must not grow with the catalog.
import { describe, expect, it } from "vitest";
import { buildRouteTable } from "../../../../scripts/api/contract/build-route-table.ts";
import { generateCatalog } from "../../../../scripts/content/generate.ts";
import { validateContent } from "../../../../scripts/content/validate.ts";
import { adapters } from "../../../../scripts/hosts/adapters.ts";
import { deriveCatalog } from "../../../../scripts/model/derive.ts";

function hostFileSizes(tools: number, categories: number): Record<string, number> {
  const generated = generateCatalog({ tools, categories, seed: 3 });
  const result = validateContent({
    site: { file: "site.json", name: "site", data: generated.site },
    categories: generated.categories.map((c) => ({ file: `categories/${c.slug}.json`, name: c.slug, data: c })),
    tools: generated.tools.map((t) => ({ file: `tools/${t.slug}.json`, name: t.slug, data: t })),
    errors: [],
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors.slice(0, 3)));
  const table = buildRouteTable(deriveCatalog(result.content).site);
  const sizes: Record<string, number> = { "routes.json": JSON.stringify(table).length };
  for (const adapt of Object.values(adapters))
    for (const f of adapt(table, { layout: "pages", compress: false })) sizes[f.path] = f.body.length;
  return sizes;
}

describe("route table size", () => {
  it("is the same for a 10-tool and a 200-tool catalog (and so is every host config)", () => {
    const small = hostFileSizes(10, 3);
    const large = hostFileSizes(200, 12);
    expect(Object.keys(small).length).toBeGreaterThan(0);
    expect(large).toEqual(small);
  });
});
