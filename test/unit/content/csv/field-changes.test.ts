// What an import changes, field by field, as `content:import --dry-run` prints it: `slug: field: old → new`.
import { describe, expect, it } from "vitest";
import { describeFieldChange, fieldChanges } from "../../../../scripts/content/csv/field-changes.ts";

describe("the changed fields of a content file", () => {
  const before = {
    $schema: "../tool.schema.json",
    name: "Mailwave",
    internalNotes: "old",
    pros: ["fast", "cheap"],
    pricingPlans: [
      { name: "Free", price: 0 },
      { name: "Pro", price: 9 },
    ],
  };

  it("names each one by its path, lists entry by entry, and leaves the rest out", () => {
    const after = {
      name: "Mailwave",
      logoUrl: null,
      pros: ["fast", "cheaper", "kind"],
      pricingPlans: [
        { price: 0, name: "Free" },
        { name: "Pro", price: 11 },
      ],
    };
    expect(fieldChanges(before, after).map((c) => describeFieldChange("mailwave", c))).toEqual([
      "mailwave: logoUrl: (none) → null",
      'mailwave: pros[1]: "cheap" → "cheaper"',
      'mailwave: pros[2]: (none) → "kind"',
      "mailwave: pricingPlans[1].price: 9 → 11",
      'mailwave: internalNotes: "old" → (none)',
    ]);
  });

  it("is nothing for the same data in another key order, or another $schema pointer", () => {
    expect(fieldChanges(before, { ...before, $schema: "elsewhere.json", name: "Mailwave" })).toEqual([]);
  });

  it("cuts a long value short", () => {
    const [change] = fieldChanges({ shortDescription: "a".repeat(100) }, { shortDescription: "b" });
    expect(describeFieldChange("x", change!)).toBe(`x: shortDescription: "${"a".repeat(58)}… → "b"`);
  });
});
