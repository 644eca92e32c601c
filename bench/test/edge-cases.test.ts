// The generated catalog the bench's conformance run uses holds every case the suite's oracle looks for, and still
// passes the content checks a build makes.
import { describe, expect, it } from "vitest";
import { generateCatalog } from "../../scripts/content/generate.ts";
import { validateContent } from "../../scripts/content/validate.ts";
import { withEdgeCases } from "../workspace/edge-cases.ts";

const plain = generateCatalog({ tools: 200, categories: 12, seed: 1 });
const edged = withEdgeCases(plain);
const members = (slug: string) => edged.tools.filter((t) => t.categories.includes(slug));

describe("withEdgeCases", () => {
  it("adds a category with no tool and one with exactly one", () => {
    expect(edged.categories.some((c) => members(c.slug).length === 0)).toBe(true);
    expect(edged.categories.some((c) => members(c.slug).length === 1)).toBe(true);
  });

  it("picks a top tool that is not the category's highest-rated, and writes notes no answer may carry", () => {
    const picked = edged.categories.filter((c) => c.topToolPick);
    expect(picked).toHaveLength(1);
    const category = picked[0]!;
    const best = Math.max(...members(category.slug).map((t) => t.rating ?? 0));
    const pick = edged.tools.find((t) => t.slug === category.topToolPick)!;
    expect(pick.categories).toContain(category.slug);
    expect(pick.rating).toBeLessThan(best);
    expect(category.editorialNotes).toBeTruthy();
    expect(edged.tools.some((t) => t.internalNotes)).toBe(true);
  });

  it("leaves the generator's own catalog as it was, and passes the content checks", () => {
    expect(generateCatalog({ tools: 200, categories: 12, seed: 1 })).toEqual(plain);
    const file = (kind: string, name: string, data: unknown) => ({ file: `${kind}/${name}.json`, name, data });
    const result = validateContent({
      site: file("content", "site", edged.site),
      categories: edged.categories.map((c) => file("content/categories", c.slug, c)),
      tools: edged.tools.map((t) => file("content/tools", t.slug, t)),
      errors: [],
    });
    expect(result.ok ? [] : result.errors).toEqual([]);
  });
});
