// A tool recalled from the content cache reads as the file's parsed value does, field by field, parsing its text only
// when a field outside the parsed ones is read (scripts/content/recalled-tool.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  copyOfTool,
  PARSED_TOOL_FIELDS,
  planPrices,
  recalledParts,
  recalledTool,
  TEXT_TOOL_FIELDS,
  wholeValue,
} from "../../../scripts/content/recalled-tool.ts";
import { ToolContent } from "../../../scripts/content/schema.ts";
import { fixture } from "../../helpers/fs/dirs.ts";

const read = (slug: string): ToolContent =>
  JSON.parse(readFileSync(`${fixture("tiny")}/tools/${slug}.json`, "utf8")) as ToolContent;

describe("a recalled tool", () => {
  it("names every field of a tool's file once, as parsed or as read from the text", () => {
    const fields = [...PARSED_TOOL_FIELDS, ...TEXT_TOOL_FIELDS];
    expect(new Set(fields).size).toBe(fields.length);
    expect([...fields].sort()).toEqual(Object.keys(ToolContent.shape).sort());
  });

  it("reads every field as the parsed file does, and keeps the same parts through the cache", () => {
    for (const slug of ["alpha-mail", "beta-mail", "quill", "zeta-crm"]) {
      const parsed = read(slug);
      const recalled = recalledTool(structuredClone(recalledParts(parsed)));
      for (const field of Object.keys(ToolContent.shape) as (keyof ToolContent)[])
        expect(recalled[field], `${slug}.${field}`).toEqual(parsed[field]);
      expect(wholeValue(recalled)).toEqual(parsed);
      expect(planPrices(recalled)).toEqual(parsed.pricingPlans.map((plan) => plan.price));
      expect(recalledParts(recalled)).toEqual(recalledParts(parsed));
      const copy = copyOfTool(recalled);
      expect(copy).not.toBe(recalled);
      expect(copy.pros).toEqual(parsed.pros);
    }
  });

  it("parses its text only once a field outside the parsed ones is read", () => {
    const parsed = read("beta-mail");
    const recalled = recalledTool(recalledParts(parsed));
    const original = JSON.parse;
    let parses = 0;
    JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
      parses++;
      return original(...args);
    };
    try {
      expect([recalled.name, recalled.slug, recalled.categories, recalled.rating]).toEqual([
        parsed.name,
        parsed.slug,
        parsed.categories,
        parsed.rating,
      ]);
      expect(parses).toBe(0);
      expect(recalled.pricingPlans).toEqual(parsed.pricingPlans);
      expect(recalled.pros).toEqual(parsed.pros);
      expect(parses).toBe(1);
    } finally {
      JSON.parse = original;
    }
  });
});
