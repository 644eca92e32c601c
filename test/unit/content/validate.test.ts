import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { formatContentError } from "../../../scripts/content/errors.ts";
import { LINK_MESSAGE as LINK, loadContent } from "../../../scripts/content/load.ts";
import { validateContent } from "../../../scripts/content/validate.ts";
import { toolContent } from "../../helpers/content/content.ts";
import { fixture } from "../../helpers/fs/dirs.ts";

async function errorsOf(name: string): Promise<string[]> {
  const dir = fixture(`bad/${name}`);
  const result = validateContent(await loadContent(dir));
  if (result.ok) throw new Error(`${name} validated`);
  // Messages name files relative to the working directory; make them relative to the fixture.
  return result.errors.map((e) =>
    formatContentError({ ...e, file: relative(dir, e.file.startsWith("/") ? e.file : `${process.cwd()}/${e.file}`) }),
  );
}

describe("bad content: every error names the file and the field path", () => {
  const cases: [fixture: string, errors: string[]][] = [
    ["wrong-type", ["tools/acme.json: pricingPlans[1].price: expected number or null, got string"]],
    ["missing-field", ["tools/acme.json: shortDescription: required field is missing"]],
    ["unknown-field", ["tools/acme.json: pricingPlans[0].cost: unknown field (not allowed here)"]],
    [
      "bad-enum",
      ['tools/acme.json: pricingPlans[1].billing: expected one of "monthly", "annual", "custom", got "weekly"'],
    ],
    ["bad-url", ['tools/acme.json: websiteUrl: expected a valid uri, got "acme dot example"']],
    ["bad-date", ['tools/acme.json: pricingLastVerified: expected a valid date, got "2026-02-30"']],
    [
      "bad-rating",
      ["tools/acme.json: rating: expected a number from 0 to 5 with at most one decimal (like 4.5), got 4.25"],
    ],
    ["rating-range", ["tools/acme.json: rating: must be <= 5, got 5.5"]],
    [
      "bad-slug",
      [
        'tools/acme.json: slug: expected a slug (lower-case letters and digits, words joined by single "-"), got "Acme_Mail"',
        'tools/acme.json: slug: "Acme_Mail" must equal the file name "acme"',
      ],
    ],
    ["slug-mismatch", ['tools/acme.json: slug: "acme-mail" must equal the file name "acme"']],
    ["unknown-category", ['tools/acme.json: categories[1]: unknown category "crm": no category has this slug']],
    ["duplicate-category", ['tools/acme.json: categories[1]: category "email" is listed twice']],
    ["pick-unknown", ['categories/email.json: topToolPick: unknown tool "nobody"']],
    ["pick-outside", ['categories/email.json: topToolPick: tool "acme" is not in category "email"']],
    ["bad-site", ["site.json: siteUrl: required field is missing", "site.json: cacheMaxAge: must be >= 0, got -1"]],
    [
      "invalid-json",
      ["tools/acme.json: invalid JSON: Expected double-quoted property name in JSON at line 1, column 24"],
    ],
    // C1: strict UTF-8, nothing replaced.
    ["not-utf8", ["tools/acme.json: is not valid UTF-8: save content files as UTF-8"]],
    ["utf16", ["tools/acme.json: is UTF-16 text: save content files as UTF-8"]],
    ["utf16-no-bom", ["tools/acme.json: is UTF-16 text: save content files as UTF-8"]],
    // C2: a link is named and refused; its target is never read, whether valid content, a secret or a folder.
    ["symlink-tool", [`tools/leak.json: ${LINK}`]],
    ["symlink-valid-tool", [`tools/quill.json: ${LINK}`]],
    ["symlink-escape-dir", [`tools/sub.json: ${LINK}`]],
    ["symlink-site", [`site.json: ${LINK}`]],
    ["symlink-folder", [`tools: ${LINK}`]],
    // C3: every limit names the file, the field and the limit.
    [
      "too-long",
      [
        "tools/acme.json: name: longer than the limit of 80 characters (has 81)",
        "tools/acme.json: shortDescription: longer than the limit of 300 characters (has 301)",
        "tools/acme.json: pricingPlans[1].features: more than the limit of 30 entries (has 31)",
        "tools/acme.json: pros: more than the limit of 20 entries (has 21)",
        "tools/acme.json: cons[0]: longer than the limit of 200 characters (has 201)",
      ],
    ],
    [
      "many-errors",
      [
        'categories/email.json: slug: "e-mail" must equal the file name "email"',
        "tools/acme.json: rating: expected number or null, got string",
        "tools/acme.json: hasApi: expected boolean, got null",
      ],
    ],
  ];
  it.each(cases)("%s", async (name, expected) => {
    expect(await errorsOf(name)).toEqual(expected);
  });

  it("a good catalog validates, with site defaults applied", async () => {
    const result = validateContent(await loadContent(fixture("tiny")));
    expect(result.ok && result.content.site).toEqual({
      siteUrl: "https://site.example",
      apiBaseUrl: "https://api.site.example",
      basePath: "/v1",
      cacheMaxAge: 60,
      cacheStaleWhileRevalidate: 0,
    });
  });

  it("a missing content folder is an error naming site.json, not a crash", async () => {
    const result = validateContent(await loadContent(fixture("does-not-exist")));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]!.file).toMatch(/does-not-exist\/site\.json$/);
    expect(!result.ok && result.errors[0]!.message).toBe("cannot read: ENOENT");
  });

  it("one run reports field and cross-file errors together, sorted by file, even in files that fail their schema", () => {
    const file = (folder: string, name: string, data: unknown) => ({
      file: `content/${folder}/${name}.json`,
      name,
      data,
    });
    const tool = {
      ...toolContent("zed-mail", "Zed"), // zed-mail: not the file name
      shortDescription: 42, // a field error
      websiteUrl: "not a url", // a field error
      rating: 9, // a field error
      pricingPlans: [{ name: "Pro", price: "cheap", billing: "monthly", features: [] }], // a field error
      categories: ["crm", "crm", "nowhere"], // listed twice, and unknown
    };
    const result = validateContent({
      site: file("", "site", { siteUrl: "https://site.example", apiBaseUrl: "https://api.site.example" }),
      categories: [
        file("categories", "crm", { name: "CRM", slug: "crm", topToolPick: "quill" }),
        file("categories", "seo", { name: 7, slug: "seo", topToolPick: "zed" }),
      ],
      tools: [file("tools", "zed", tool), file("tools", "quill", { ...tool, slug: "quill", categories: ["seo"] })],
      errors: [],
    });
    expect(result.ok).toBe(false);
    const lines = result.ok ? [] : result.errors.map(formatContentError);
    expect(lines).toEqual([
      'content/categories/crm.json: topToolPick: tool "quill" is not in category "crm"',
      "content/categories/seo.json: name: expected string, got number",
      'content/categories/seo.json: topToolPick: tool "zed" is not in category "seo"',
      "content/tools/quill.json: shortDescription: expected string, got number",
      'content/tools/quill.json: websiteUrl: expected a valid uri, got "not a url"',
      "content/tools/quill.json: rating: must be <= 5, got 9",
      "content/tools/quill.json: pricingPlans[0].price: expected number or null, got string",
      "content/tools/zed.json: shortDescription: expected string, got number",
      'content/tools/zed.json: websiteUrl: expected a valid uri, got "not a url"',
      "content/tools/zed.json: rating: must be <= 5, got 9",
      "content/tools/zed.json: pricingPlans[0].price: expected number or null, got string",
      'content/tools/zed.json: slug: "zed-mail" must equal the file name "zed"',
      'content/tools/zed.json: categories[1]: category "crm" is listed twice',
      'content/tools/zed.json: categories[2]: unknown category "nowhere": no category has this slug',
    ]);
  });
});

describe("authoring slips: what was probably meant is named", () => {
  const file = (folder: string, name: string, data: unknown) => ({
    file: `content/${folder}/${name}.json`,
    name,
    data,
  });
  const site = file("", "site", { siteUrl: "https://site.test", apiBaseUrl: "https://api.site.test" });
  const tool = (slug: string, extra: Record<string, unknown> = {}) =>
    toolContent(slug, slug.toUpperCase(), { categories: ["email-marketing"], ...extra });
  const errors = (tools: ReturnType<typeof file>[]) => {
    const result = validateContent({
      site,
      categories: [file("categories", "email-marketing", { name: "Email", slug: "email-marketing" })],
      tools,
      errors: [],
    });
    return result.ok ? [] : result.errors.map(formatContentError);
  };

  it("an unknown category: did you mean the nearest one", () => {
    expect(errors([file("tools", "acme", tool("acme", { categories: ["email-marketting"] }))])).toEqual([
      'content/tools/acme.json: categories[0]: unknown category "email-marketting" (did you mean "email-marketing"?)',
    ]);
  });

  it("an unknown field, at the top or in a plan: did you mean the nearest field", () => {
    const { rating, ...withoutRating } = tool("acme");
    const plan = { name: "Pro", prise: 5, billing: "monthly", features: [] };
    expect(rating).toBeNull();
    expect(errors([file("tools", "acme", { ...withoutRating, ratng: null, pricingPlans: [plan] })])).toEqual([
      "content/tools/acme.json: rating: required field is missing",
      'content/tools/acme.json: ratng: unknown field (did you mean "rating"?)',
      "content/tools/acme.json: pricingPlans[0].price: required field is missing",
      'content/tools/acme.json: pricingPlans[0].prise: unknown field (did you mean "price"?)',
    ]);
  });

  it("a duplicate slug names both files", () => {
    expect(errors([file("tools", "acme", tool("acme")), file("tools", "acme-copy", tool("acme"))])).toEqual([
      'content/tools/acme-copy.json: slug: "acme" is also the slug of content/tools/acme.json: each slug is one file\'s, and must equal its file name "acme-copy"',
    ]);
  });
});
