// The warning lines a build prints: news first and whole, the rest one line per kind, what the last build printed one
// line in all; --verbose every warning.
import { describe, expect, it } from "vitest";
import type { ContentWarning } from "../../../scripts/content/placeholders.ts";
import { warningReport } from "../../../scripts/content/warning-report.ts";

const address = (file: string): ContentWarning => ({
  file,
  path: "websiteUrl",
  kind: "example-address",
  message: "a placeholder address",
});
const todo: ContentWarning = {
  file: "content/tools/acme.json",
  path: "shortDescription",
  kind: "todo",
  message: "TODO",
};
const empty: ContentWarning = {
  file: "content/categories/seo.json",
  path: "",
  kind: "empty-category",
  message: "empty",
};
const warnings = [address("content/tools/a.json"), address("content/tools/b.json"), todo, empty];
const host = ["Cloudflare Pages (Free): this build exceeds its limit of 20,000 files per site"];
const first = { known: false, changed: [], seen: [], seenHost: [] };

describe("warningReport", () => {
  it("groups a first build's warnings by kind, one line each, a kind of one warning whole", () => {
    expect(warningReport(warnings, host, first)).toEqual([
      "warning: content/tools/acme.json: shortDescription: TODO (--strict fails on placeholders)",
      "warning: 2 placeholder addresses in content/tools/a.json and 1 more files (--verbose lists them)",
      "warning: content/categories/seo.json: empty",
      `warning: ${host[0]}`,
    ]);
  });

  it("prints a changed file's warnings first and whole, and those the last build printed in one line", () => {
    const history = { known: true, changed: [2], seen: [0, 1, 3], seenHost: [0] };
    expect(warningReport(warnings, host, history)).toEqual([
      "warning: content/tools/acme.json: shortDescription: TODO (--strict fails on placeholders)",
      "warning: 4 warnings the last build printed too (2 placeholder addresses, 1 empty category, 1 host limit): " +
        "--verbose lists them",
    ]);
  });

  it("with --verbose, lists every warning whole under its kind", () => {
    const history = { known: true, changed: [], seen: [0, 1, 2, 3], seenHost: [0] };
    const lines = warningReport(warnings, host, history, true);
    expect(lines).toContain("  content/tools/b.json: websiteUrl: a placeholder address");
    expect(lines).toContain("warning: TODO text from the scaffold, 1 in all:");
    expect(lines.at(-1)).toBe(`warning: ${host[0]}`);
  });
});
