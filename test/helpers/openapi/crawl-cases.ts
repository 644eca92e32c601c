// Every request the live crawl sends, derived from the catalog and the decisions: each operation, its defaults,
// filters, and every error status it documents. `breaks` names the request parameters a case violates on purpose.
import type { Catalog } from "../../../scripts/model/derive.ts";

export interface CrawlCase {
  /** the rule the case checks */
  rule: string;
  /** path and query below the server's base path, as in the description's paths */
  target: string;
  status: 200 | 400 | 404;
  code?: string;
  /** Prism locations (`query.limit`, `path.slug`) this request breaks on purpose; any other request violation fails */
  breaks?: string[];
  /** locations Prism flags although the request is valid: a Prism deviation from OpenAPI, named in the case */
  prismMisreads?: string[];
}

export function crawlCases(catalog: Catalog): CrawlCase[] {
  const total = catalog.tools.length;
  const firstTool = catalog.tools[0];
  const empty = catalog.categories.find((c) => c.tools.length === 0);
  const cases: CrawlCase[] = [
    { rule: "listSoftware defaults (limit 20, offset 0)", target: "/software", status: 200 },
    { rule: "Q2 limit=1 is valid", target: "/software?limit=1", status: 200 },
    { rule: "Q2 limit=100", target: "/software?limit=100", status: 200 },
    { rule: "Q4 last page", target: `/software?limit=1&offset=${Math.max(total - 1, 0)}`, status: 200 },
    { rule: "Q4 offset = total answers an empty page", target: `/software?offset=${total}`, status: 200 },
    // Prism lowercases query names before matching (stoplightio/prism#329), so it reads LIMIT as limit; OpenAPI names are case-sensitive.
    {
      rule: "Q7 unknown and differently-cased names are ignored",
      target: "/software?LIMIT=0&foo=bar",
      status: 200,
      prismMisreads: ["query.limit"],
    },
    { rule: "Q7 unknown names are ignored", target: "/software?foo=bar&limit=3", status: 200 },
    {
      rule: "Q4 offset > total → 400 offset_out_of_range",
      target: `/software?offset=${total + 1}`,
      status: 400,
      code: "offset_out_of_range",
    },
    {
      rule: "Q5 unknown category → 404 category_not_found",
      target: "/software?category=no-such-category",
      status: 404,
      code: "category_not_found",
    },
    {
      rule: "Q6 category twice → 400 category_not_found",
      target: "/software?category=a&category=b",
      status: 400,
      code: "category_not_found",
      breaks: ["query.category"],
    },
    {
      rule: "Q2 limit=0 → 400 invalid_limit",
      target: "/software?limit=0",
      status: 400,
      code: "invalid_limit",
      breaks: ["query.limit"],
    },
    {
      rule: "Q2 limit=101 → 400 invalid_limit",
      target: "/software?limit=101",
      status: 400,
      code: "invalid_limit",
      breaks: ["query.limit"],
    },
    {
      rule: "Q2 limit=abc → 400 invalid_limit",
      target: "/software?limit=abc",
      status: 400,
      code: "invalid_limit",
      breaks: ["query.limit"],
    },
    {
      rule: "Q2 empty limit → 400 invalid_limit",
      target: "/software?limit=",
      status: 400,
      code: "invalid_limit",
      breaks: ["query.limit"],
    },
    {
      rule: "Q2 leading zero → 400 invalid_limit",
      target: "/software?limit=05",
      status: 400,
      code: "invalid_limit",
      breaks: ["query.limit"],
    },
    {
      rule: "Q6 limit twice → 400 invalid_limit",
      target: "/software?limit=5&limit=6",
      status: 400,
      code: "invalid_limit",
      breaks: ["query.limit"],
    },
    {
      rule: "Q3 offset=-1 → 400 invalid_offset",
      target: "/software?offset=-1",
      status: 400,
      code: "invalid_offset",
      breaks: ["query.offset"],
    },
    {
      rule: "Q3 offset=x → 400 invalid_offset",
      target: "/software?offset=x",
      status: 400,
      code: "invalid_offset",
      breaks: ["query.offset"],
    },
    {
      rule: "Q8 limit is checked before offset",
      target: "/software?limit=0&offset=-1",
      status: 400,
      code: "invalid_limit",
      breaks: ["query.limit", "query.offset"],
    },
    { rule: "listCategories", target: "/categories", status: 200 },
    { rule: "P8 the description itself", target: "/openapi.json", status: 200 },
    {
      rule: "getSoftware unknown slug → 404 software_not_found",
      target: "/software/no-such-tool",
      status: 404,
      code: "software_not_found",
    },
    {
      rule: "getBestInCategory unknown category → 404 category_not_found",
      target: "/best/no-such-category",
      status: 404,
      code: "category_not_found",
    },
  ];
  for (const t of catalog.tools)
    cases.push({ rule: `getSoftware ${t.slug}`, target: `/software/${t.slug}`, status: 200 });
  if (firstTool && firstTool.slug !== firstTool.slug.toUpperCase()) {
    cases.push({
      rule: "P3 slugs match without case folding → 404 software_not_found",
      target: `/software/${firstTool.slug.toUpperCase()}`,
      status: 404,
      code: "software_not_found",
      breaks: ["path.slug"],
    });
  }
  for (const c of catalog.categories) {
    cases.push({
      rule: `Q5 category filter ${c.slug} (${c.tools.length} tools)`,
      target: `/software?category=${c.slug}&limit=2`,
      status: 200,
    });
    if (c.tools.length > 0)
      cases.push({ rule: `O3 best of ${c.slug} (${c.tools.length} tools)`, target: `/best/${c.slug}`, status: 200 });
  }
  if (empty) {
    cases.push({
      rule: "O4 a category with no tools → 404 category_not_found",
      target: `/best/${empty.slug}`,
      status: 404,
      code: "category_not_found",
    });
    cases.push({
      rule: "Q4 offset beyond an empty category → 400",
      target: `/software?category=${empty.slug}&offset=1`,
      status: 400,
      code: "offset_out_of_range",
    });
  }
  return cases;
}
