// Q1–Q9: the query parameters of GET /software, one request per rule case.
import { expect } from "vitest";
import { categoryWith } from "../helpers/conformance/catalog.ts";
import { suiteContext } from "../helpers/conformance/context.ts";
import { expectError, expectOk } from "../helpers/conformance/expect-response.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import type { Client } from "../helpers/conformance/http.ts";
import type { ListMeta, SoftwareList } from "../helpers/conformance/shapes.ts";

const { catalog } = suiteContext();
const list = `${catalog.basePath}/software`;
const total = catalog.tools.length;
const listed = categoryWith(catalog, "listed");
const empty = categoryWith(catalog, "no tools");
const single = categoryWith(catalog, "one tool");
const allSlugs = catalog.tools.map((t) => t.slug);

/** 200 with exactly this meta, and the matching slice of the catalog in O1 order */
async function expectPage(client: Client, query: string, meta: ListMeta): Promise<SoftwareList> {
  const body = expectOk<SoftwareList>(await client.get(`${list}?${query}`));
  expect(body.meta, `?${query}: meta (Q9)`).toEqual(meta);
  const members = meta.category === null ? allSlugs : catalog.categoryBySlug.get(meta.category)!.members;
  expect(
    body.data.map((t) => t.slug),
    `?${query}: data`,
  ).toEqual(members.slice(meta.offset, meta.offset + meta.limit));
  return body;
}
const defaults: ListMeta = { total, limit: 20, offset: 0, category: null };

forEachHost(({ test, client }) => {
  test("Q1 an encoded limit is not decoded: limit=%31 → 400 invalid_limit", async () => {
    for (const value of ["%31", "%35", "1%30", "%3100"])
      expectError(await client().get(`${list}?limit=${value}`), 400, "invalid_limit");
  });

  test("Q1 an encoded category is not decoded → 404 category_not_found", async () => {
    const encoded = `%${listed.slug.charCodeAt(0).toString(16)}${listed.slug.slice(1)}`;
    expectError(await client().get(`${list}?category=${encoded}`), 404, "category_not_found");
  });

  test("Q1 an encoded parameter name is not decoded: %6cimit=0 is an unknown parameter", async () => {
    await expectPage(client(), "%6cimit=0", defaults);
  });

  const badLimits: [string, string][] = [
    ["0", "limit=0"],
    ["101", "limit=101"],
    ["01", "limit=01"],
    ["+5", "limit=+5"],
    ["-1", "limit=-1"],
    ["' 5' (sent as %205)", "limit=%205"],
    ["'5 ' (sent as 5%20)", "limit=5%20"],
    ["5.0", "limit=5.0"],
    ["empty", "limit="],
    ["with no =", "limit"],
    ["1e1", "limit=1e1"],
    ["0x10", "limit=0x10"],
    ["1000", "limit=1000"],
    ["abc", "limit=abc"],
    ["fullwidth ５", "limit=%EF%BC%95"],
    ["5;", "limit=5;offset=1"],
  ];
  for (const [label, query] of badLimits) {
    test(`Q2 limit=${label} → 400 invalid_limit`, async () => {
      expectError(await client().get(`${list}?${query}`), 400, "invalid_limit");
    });
  }

  test("Q2 limit 1, 9, 10, 99, 100 are valid and echoed", async () => {
    for (const limit of [1, 9, 10, 99, 100]) await expectPage(client(), `limit=${limit}`, { ...defaults, limit });
  });

  test("Q2 absent limit is 20", async () => {
    await expectPage(client(), "", defaults);
    await expectPage(client(), "offset=1", { ...defaults, offset: 1 });
  });

  const badOffsets: [string, string][] = [
    ["-1", "offset=-1"],
    ["01", "offset=01"],
    ["00", "offset=00"],
    ["+1", "offset=+1"],
    ["1.0", "offset=1.0"],
    ["empty", "offset="],
    ["with no =", "offset"],
    ["1e1", "offset=1e1"],
    ["' 1' (sent as %201)", "offset=%201"],
    ["%30", "offset=%30"],
    ["0x1", "offset=0x1"],
    ["abc", "offset=abc"],
  ];
  for (const [label, query] of badOffsets) {
    test(`Q3 offset=${label} → 400 invalid_offset`, async () => {
      expectError(await client().get(`${list}?${query}`), 400, "invalid_offset");
    });
  }

  test("Q3 offset 0 and 1 are valid and echoed; absent offset is 0", async () => {
    await expectPage(client(), "offset=0", defaults);
    await expectPage(client(), "offset=1", { ...defaults, offset: 1 });
  });

  test("Q3 a 30-digit offset is valid syntax → 400 offset_out_of_range", async () => {
    const body = expectError(await client().get(`${list}?offset=${"9".repeat(30)}`), 400, "offset_out_of_range");
    expect(body.error.hint ?? "(no hint)").toMatch(new RegExp(`\\b${total}\\b`));
  });

  test("Q4 offset = total → 200 with empty data", async () => {
    const body = await expectPage(client(), `offset=${total}`, { ...defaults, offset: total });
    expect(body.data).toEqual([]);
  });

  test("Q4 offset = total + 1 → 400 offset_out_of_range whose hint names the total", async () => {
    const body = expectError(await client().get(`${list}?offset=${total + 1}`), 400, "offset_out_of_range");
    expect(body.error.hint ?? "(no hint)", "hint names the total").toMatch(new RegExp(`\\b${total}\\b`));
  });

  test("Q4 with a category, the range is the category's total", async () => {
    const n = listed.members.length;
    const body = await expectPage(client(), `category=${listed.slug}&offset=${n}`, {
      total: n,
      limit: 20,
      offset: n,
      category: listed.slug,
    });
    expect(body.data).toEqual([]);
    const error = expectError(
      await client().get(`${list}?category=${listed.slug}&offset=${n + 1}`),
      400,
      "offset_out_of_range",
    );
    expect(error.error.hint ?? "(no hint)").toMatch(new RegExp(`\\b${n}\\b`));
  });

  test("Q5 unknown category → 404 category_not_found with a hint pointing at /categories", async () => {
    for (const value of ["no-such-category", listed.slug.toUpperCase(), `${listed.slug}x`, "", "all"]) {
      const body = expectError(await client().get(`${list}?category=${value}`), 404, "category_not_found");
      expect(body.error.hint ?? "(no hint)", `category=${value}: hint`).toContain("/categories");
    }
  });

  test("Q5 a category with no tools → 200 empty page", async () => {
    const body = await expectPage(client(), `category=${empty.slug}`, {
      total: 0,
      limit: 20,
      offset: 0,
      category: empty.slug,
    });
    expect(body.data).toEqual([]);
    expectError(await client().get(`${list}?category=${empty.slug}&offset=1`), 400, "offset_out_of_range");
  });

  test("Q5 a one-tool category (absent from /categories) still filters → 200", async () => {
    await expectPage(client(), `category=${single.slug}`, { total: 1, limit: 20, offset: 0, category: single.slug });
  });

  test("Q6 limit given twice → 400 invalid_limit", async () => {
    for (const query of ["limit=5&limit=6", "limit=5&limit=5", "limit=5&offset=0&limit=5", "limit&limit"]) {
      expectError(await client().get(`${list}?${query}`), 400, "invalid_limit");
    }
  });

  test("Q6 offset given twice → 400 invalid_offset", async () => {
    for (const query of ["offset=1&offset=2", "offset=0&offset=0"])
      expectError(await client().get(`${list}?${query}`), 400, "invalid_offset");
  });

  test("Q6 category given twice → 400 category_not_found", async () => {
    const other = catalog.categories.find((c) => c.slug !== listed.slug)!;
    for (const query of [
      `category=${listed.slug}&category=${listed.slug}`,
      `category=${listed.slug}&category=${other.slug}`,
      "category=nope&category=nope",
    ]) {
      expectError(await client().get(`${list}?${query}`), 400, "category_not_found");
    }
  });

  test("Q7 unknown parameters are ignored", async () => {
    for (const query of [
      "foo=bar",
      "utm_source=x&utm_medium=y",
      "limit[]=0",
      "=5",
      "&",
      "&&",
      "x",
      "sort=name&order=desc",
      "page=3",
    ]) {
      await expectPage(client(), query, defaults);
    }
    await expectPage(client(), "limit=5&", { ...defaults, limit: 5 });
    await expectPage(client(), "&&limit=5&&", { ...defaults, limit: 5 });
  });

  test("Q7 names are case-sensitive: LIMIT=5, Limit=0, OFFSET=-1, Category=x are ignored", async () => {
    for (const query of ["LIMIT=5", "Limit=0", "OFFSET=-1", "Offset=9999", `Category=nope`, "CATEGORY=nope"])
      await expectPage(client(), query, defaults);
  });

  // test names use placeholders, not catalog values, so that a host's knownGaps hold on any catalog
  const fill = (query: string) =>
    query
      .replace("{total+1}", String(total + 1))
      .replace("{category}", listed.slug)
      .replace("{categoryTotal+1}", String(listed.members.length + 1));
  const orderCases: [string, string, 400 | 404, string][] = [
    ["limit before offset", "limit=0&offset=-1", 400, "invalid_limit"],
    ["limit before offset, whatever the parameter order", "offset=-1&limit=0", 400, "invalid_limit"],
    ["limit before category", "category=nope&limit=101", 400, "invalid_limit"],
    ["repeated limit before offset", "limit=1&limit=2&offset=x", 400, "invalid_limit"],
    ["offset syntax before category", "category=nope&offset=x", 400, "invalid_offset"],
    ["repeated offset before unknown category", "offset=1&offset=2&category=nope", 400, "invalid_offset"],
    ["category before offset range", "category=nope&offset={total+1}", 404, "category_not_found"],
    [
      "repeated category before offset range",
      "category={category}&category={category}&offset={total+1}",
      400,
      "category_not_found",
    ],
    [
      "offset range is checked against the category",
      "category={category}&offset={categoryTotal+1}",
      400,
      "offset_out_of_range",
    ],
    ["limit before everything", "limit=0&offset=01&category=nope&category=x", 400, "invalid_limit"],
  ];
  for (const [label, query, status, code] of orderCases) {
    test(`Q8 ${label}: ?${query} → ${status} ${code}`, async () => {
      expectError(await client().get(`${list}?${fill(query)}`), status, code);
    });
  }

  test("Q9 meta echoes the defaults and counts every tool", async () => {
    await expectPage(client(), "", defaults);
  });

  test("Q9 meta echoes the given limit, offset and category", async () => {
    await expectPage(client(), "limit=7&offset=3", { total, limit: 7, offset: 3, category: null });
    for (const category of catalog.categories) {
      await expectPage(client(), `offset=0&category=${category.slug}&limit=3`, {
        total: category.members.length,
        limit: 3,
        offset: 0,
        category: category.slug,
      });
    }
  });

  test("Q9 the last page holds the remainder", async () => {
    const offset = total - 1;
    const body = await expectPage(client(), `limit=5&offset=${offset}`, { total, limit: 5, offset, category: null });
    expect(body.data).toHaveLength(1);
  });
});
