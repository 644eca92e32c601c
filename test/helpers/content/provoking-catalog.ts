// A valid catalog written to provoke a spreadsheet: every text a spreadsheet reads as something else (a number, a date,
// a time, a flag, a formula), OWASP's formula prefixes, the marker itself, multi-line and non-Latin text, in every kind
// of field where text lives (names, descriptions, pros, cons, plan names and features, notes, slugs), and numbers that
// German reads as other numbers. What LibreOffice makes of each value: docs/guide/content.md and the tests that use it.
import type { GeneratedCatalog } from "../../../scripts/content/generate.ts";
import type { CategoryContent, PricingPlan, ToolContent } from "../../../scripts/content/schema.ts";

/** One-line texts, each a provocation (grouped as the issue names them). */
export const PROVOKING_TEXTS: readonly string[] = [
  // leading zeros
  "00042",
  " 00042",
  "007",
  // formula prefixes (OWASP: = + - @ tab CR, and their full-width forms)
  "=2+3",
  "=A1",
  '=HYPERLINK("http://x.example","x")',
  "+2+3",
  "-2+3",
  "@SUM(1)",
  "=",
  "+",
  "-",
  "@",
  "\tx",
  "＝1+1",
  "－1",
  " =2+3",
  // signs
  "+1",
  "-1",
  "-0",
  "−1",
  "+49 30 123",
  // numbers in exponent form
  "1e5",
  "1E-3",
  "2e3x",
  "1e21",
  "123456789012345678",
  "0.30000000000000004",
  // thousands separators
  "1,000",
  "1.000",
  "1.000,5",
  "1,000.5",
  "1 000",
  "1\u00a0000",
  "10,000 monthly events",
  // percentages
  "50%",
  "5 %",
  "99.9% uptime SLA",
  // decimal prices and currencies
  "12.50",
  "12,50",
  "1,5",
  ".5",
  "5.",
  "19.99",
  "1.234",
  "$5",
  "€5",
  "5 €",
  "(42)",
  "Up to $5,000 monthly ad spend",
  // dates and times
  "2024-01-02",
  "01/02/2024",
  "02.01.2024",
  "1/2",
  "2024-1-2",
  "1.5.",
  "Jan 2",
  "2 Jan",
  "January 2, 2024",
  "Mai 2024",
  "Mrz 3",
  "Jänner 2",
  "Sept 5",
  "Dec-24",
  "3:45",
  "12:00:00",
  "3:45 PM",
  "3 PM",
  // flags
  "TRUE",
  "true",
  "false",
  " true",
  "WAHR",
  "FALSCH",
  "wahr",
  // what formulas answer when they fail
  "#N/A",
  "#VALUE!",
  "Err:508",
  // the marker itself
  "'",
  "'abc",
  "''x",
  "'00042",
  "'=2+3",
  // non-Latin text
  "日本語",
  "Ελληνικά",
  "😀👍🏽",
  "٣",
  "Ñandú",
  // separators, quotes and spaces inside a cell
  "a;b",
  "a\tb",
  "a,b",
  '"x"',
  " x",
  "x ",
  // text that only looks close
  "0x1F",
  "NaN",
  "Infinity",
  "1_000",
  "Version 2",
  "3 seats",
  "24/7 support",
  "https://x.example",
  "plain text",
];

/** Texts of several lines, for the fields that may hold them (names, descriptions, notes; not list entries). */
export const MULTI_LINE_TEXTS: readonly string[] = ["a\nb", "1\n2", "=1\n2", "00042\nabc", "TRUE\nFALSE", "12.5\n3"];

/** Slugs a spreadsheet reads as numbers, dates or flags (a slug is `a-z`, `0-9` and single hyphens). */
export const PROVOKING_SLUGS: readonly string[] = ["00042", "1e5", "2024-01-02", "true", "1-2", "1000", "12-50"];

/** Prices a spreadsheet may read as other numbers (German reads `1.234` as 1234), and one on request. */
const PRICES: readonly (number | null)[] = [0, 1.234, 0.125, 1234.567, 19.99, 12.5, 1000, 999.999, null, 0.001, 4.5];
const RATINGS: readonly (number | null)[] = [4.5, 3.9, 0, 5, null, 1.2, 0.1];
const DAYS: readonly (number | null)[] = [14, 0, null, 1000, 30];
const DATES: readonly (string | null)[] = ["2024-01-02", null, "2026-12-31"];

const at = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

/**
 * The catalog: one tool per provoking text, each text in turn its name, its description, a pro, a con (alone in its
 * cell, as a spreadsheet converts a cell of one line), a plan's name and a feature, a note; categories and tools with
 * provoking slugs; every price of PRICES.
 */
export function provokingCatalog(): GeneratedCatalog {
  const texts = PROVOKING_TEXTS;
  const categorySlugs = ["plain", ...PROVOKING_SLUGS.slice(0, 4)];
  const toolSlug = (i: number) => (i < PROVOKING_SLUGS.length ? PROVOKING_SLUGS[i]! : `tool-${i}`);
  const tools: ToolContent[] = texts.map((text, i) => {
    const plans: PricingPlan[] = [
      {
        name: at(texts, i + 5),
        price: at(PRICES, i),
        billing: "monthly",
        features: [at(texts, i + 6)],
      },
      {
        name: at([...texts, ...MULTI_LINE_TEXTS], i + 7),
        price: at(PRICES, i + 3),
        billing: i % 2 === 0 ? "annual" : "custom",
        features: [at(texts, i + 8), at(texts, i + 9), text],
      },
    ];
    return {
      name: text,
      slug: toolSlug(i),
      shortDescription: i % 3 === 0 ? at(MULTI_LINE_TEXTS, i) : at(texts, i + 1),
      websiteUrl: `https://tool-${i}.example`,
      logoUrl: i % 2 === 0 ? null : `https://cdn.tool-${i}.example/logo.svg`,
      rating: at(RATINGS, i),
      freeTrialDays: at(DAYS, i),
      moneyBackDays: at(DAYS, i + 2),
      pricingPlans: plans,
      hasApi: i % 2 === 0,
      hasMcpServer: i % 3 === 0,
      hasZapier: i % 5 === 0,
      hasMake: i % 7 === 0,
      pros: [at(texts, i + 2), at(texts, i + 3)],
      cons: [at(texts, i + 4)],
      pricingLastVerified: at(DATES, i),
      categories: i % 4 === 0 ? [at(categorySlugs, i), at(categorySlugs, i + 1)] : [at(categorySlugs, i)],
      ...(i % 2 === 0 ? { internalNotes: at([...MULTI_LINE_TEXTS, ...texts], i) } : {}),
    };
  });
  const categories: CategoryContent[] = categorySlugs.map((slug, i) => ({
    name: at(texts, i * 7),
    slug,
    // the first tool of the category with a provoking slug, when it has one
    ...(tools.some((t) => t.categories.includes(slug) && PROVOKING_SLUGS.includes(t.slug))
      ? { topToolPick: tools.find((t) => t.categories.includes(slug) && PROVOKING_SLUGS.includes(t.slug))!.slug }
      : {}),
    editorialNotes: at([...MULTI_LINE_TEXTS, ...texts], i * 5),
  }));
  return {
    site: {
      siteUrl: "https://provoking.example",
      apiBaseUrl: "https://api.provoking.example",
      basePath: "/v1",
      cacheMaxAge: 300,
      cacheStaleWhileRevalidate: 1000,
    },
    categories,
    tools,
  };
}
