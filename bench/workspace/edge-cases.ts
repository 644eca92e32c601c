// The cases the conformance suite's oracle needs and a generated catalog leaves to chance: a category with no tool,
// one with exactly one, an editorial pick that is not the highest-rated tool, and internal and editorial notes that
// must never reach an answer. Added to a generated catalog for the bench's conformance run over 1,000 tools; the
// generator's own output (the build and rebuild steps' catalog) stays as it is.
import type { GeneratedCatalog } from "../../scripts/content/generate.ts";

export function withEdgeCases(catalog: GeneratedCatalog): GeneratedCatalog {
  const tools = catalog.tools.map((t) => ({ ...t, categories: [...t.categories] }));
  const categories = catalog.categories.map((c) => ({ ...c }));
  const schema = catalog.categories[0]?.$schema ?? "../../schemas/content/category.schema.json";
  // Names after every generated one ("Zz…"), so the lists' order and pages before them do not move.
  categories.push({ $schema: schema, name: "Zz Empty Shelf", slug: "zz-empty-shelf" });
  categories.push({ $schema: schema, name: "Zz Single Shelf", slug: "zz-single-shelf" });
  const loner = tools[0]!;
  loner.categories.push("zz-single-shelf");
  // The pick: the lowest-rated member of the largest category, so the pick and the rating disagree.
  const largest = categories.reduce((best, c) =>
    tools.filter((t) => t.categories.includes(c.slug)).length >
    tools.filter((t) => t.categories.includes(best.slug)).length
      ? c
      : best,
  );
  const members = tools.filter((t) => t.categories.includes(largest.slug) && t.rating !== null);
  const pick = members.reduce((low, t) => ((t.rating ?? 0) < (low.rating ?? 0) ? t : low), members[0]!);
  largest.topToolPick = pick.slug;
  largest.editorialNotes = "Edge case: an editorial note that no answer may carry.";
  tools[1]!.internalNotes = "Edge case: an internal note that no answer may carry.";
  return { ...catalog, categories, tools };
}
