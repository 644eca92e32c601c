// S1–S3: GET /search?q=PREFIX, against a brute-force matcher over the content files' names.
import fc from "fast-check";
import { expect } from "vitest";
import { suiteContext } from "../helpers/conformance/context.ts";
import { expectError, expectOk } from "../helpers/conformance/expect-response.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import type { Client } from "../helpers/conformance/http.ts";
import { bruteForceSearch, wordsOf } from "../helpers/conformance/search-oracle.ts";
import type { Summary } from "../helpers/conformance/shapes.ts";

const { catalog } = suiteContext();
const search = `${catalog.basePath}/search`;
const names = catalog.tools.map((t) => t.name);
const words = [...new Set(names.flatMap(wordsOf))].sort();

interface SearchBody {
  data: Summary[];
  meta: { total: number; limit: number };
}

async function expectMatches(client: Client, query: string, q: string): Promise<void> {
  const body = expectOk<SearchBody>(await client.get(`${search}?${query}`));
  const matches = bruteForceSearch(catalog.tools, q);
  expect(Object.keys(body), `?${query}: envelope`).toEqual(["data", "meta"]);
  expect(body.meta, `?${query}: meta`).toEqual({ total: matches.length, limit: 20 });
  expect(
    body.data.map((t) => t.slug),
    `?${query}: the first 20 matches by name`,
  ).toEqual(matches.slice(0, 20).map((t) => t.slug));
}

forEachHost(({ test, client }) => {
  test("S1 every word's first letter, first three letters and whole word find the tools that have it", async () => {
    for (const word of words.slice(0, 40)) {
      for (const q of new Set([word.slice(0, 1), word.slice(0, 3), word.slice(0, 32)])) {
        await expectMatches(client(), `q=${q}`, q);
      }
    }
  });

  test("S1 random prefixes answer as the brute-force matcher", async () => {
    const q = fc.oneof(
      fc
        .constantFrom(...words)
        .chain((w) => fc.integer({ min: 1, max: Math.min(32, w.length) }).map((n) => w.slice(0, n))),
      fc.stringMatching(/^[a-z0-9]{1,4}$/),
    );
    await fc.assert(
      fc.asyncProperty(q, async (prefix) => expectMatches(client(), `q=${prefix}`, prefix)),
      { seed: 20261125, numRuns: 60 },
    );
  });

  test("S3 a valid q that matches nothing → 200 with no data and total 0", async () => {
    for (const q of ["zzzzqqqq", "0000000000", "x".repeat(32)]) {
      if (bruteForceSearch(catalog.tools, q).length > 0) continue;
      const body = expectOk<SearchBody>(await client().get(`${search}?q=${q}`));
      expect(body, `q=${q}`).toEqual({ data: [], meta: { total: 0, limit: 20 } });
    }
  });

  test("S2 other parameters are ignored, and q keeps its meaning wherever it stands", async () => {
    const q = words[0]!.slice(0, 2);
    await expectMatches(client(), `limit=1&q=${q}&offset=5&Q=zz`, q);
  });

  const invalid: [string, string][] = [
    ["absent", ""],
    ["absent, other parameters given", "limit=5"],
    ["empty", "q="],
    ["with no =", "q"],
    ["given twice", "q=a&q=a"],
    ["upper case", "q=Mail"],
    ["33 characters", `q=${"a".repeat(33)}`],
    ["a space (sent as %20)", "q=mail%20wave"],
    ["encoded letters are not decoded", "q=%6dail"],
    ["a hyphen", "q=e-mail"],
    ["an accented letter (sent as UTF-8)", "q=caf%C3%A9"],
    ["a plus", "q=a+b"],
    ["Q (the name is case-sensitive)", "Q=mail"],
  ];
  for (const [label, query] of invalid) {
    test(`S2 q ${label} → 400 invalid_query with a hint`, async () => {
      const body = expectError(await client().get(`${search}${query ? `?${query}` : ""}`), 400, "invalid_query");
      expect(body.error.hint, "the hint says what a valid q is").toBeTruthy();
    });
  }

  test("S3 search answers carry ETag and Cache-Control, and If-None-Match answers 304", async () => {
    const q = words[0]!.slice(0, 1);
    const first = await client().get(`${search}?q=${q}`);
    expectOk(first);
    const again = await client().get(`${search}?q=${q}`, { "if-none-match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
  });
});
