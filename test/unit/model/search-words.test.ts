// S1: the build's prefix index against the conformance suite's brute-force matcher, over generated names with
// accents, ligatures, superscripts, punctuation and letters outside a–z.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SEARCH_PREFIX } from "../../../scripts/api/runtime/route-table.ts";
import { nameWords, prefixIndex, toolsWithEveryPrefix, toolsWithPrefix } from "../../../scripts/model/search-words.ts";
import { bruteForceSearch, wordsOf } from "../../helpers/conformance/search-oracle.ts";

const pieces = [
  ..."abcxyzABCXYZ0129",
  ..."éÉèñÑüÜçåøæßİıﬁﬀ²³½Å",
  ..." -._&+/'’()!@#:",
  "\u0301", // a lone combining acute accent
  "mail",
  "Mailwave",
  "e-mail",
  "x".repeat(40),
];
const name = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 12 }).map((p) => p.join(""));

describe("search words and prefixes (S1)", () => {
  it("splits names as the rule says", () => {
    expect(nameWords("Café Studio-Pro")).toEqual(["cafe", "studio", "pro"]);
    expect(nameWords("Ñandú CRM")).toEqual(["nandu", "crm"]);
    expect(nameWords("ﬁle²Go")).toEqual(["file2go"]);
    expect(nameWords("Straße")).toEqual(["stra", "e"]);
    expect(nameWords("--")).toEqual([]);
  });

  it("every prefix the index holds, and random prefixes it does not, match exactly the brute-force tools", () => {
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 12 }), fc.stringMatching(/^[a-z0-9]{1,3}$/), (names, q) => {
        const tools = names.map((n) => ({ name: n }));
        const index = prefixIndex(names);
        for (const [prefix, matches] of index) {
          expect(prefix.length).toBeLessThanOrEqual(MAX_SEARCH_PREFIX);
          expect(matches.map((i) => tools[i])).toEqual(bruteForceSearch(tools, prefix));
        }
        // a q the index lacks matches nothing (answered by the shared empty body)
        if (!index.has(q)) expect(bruteForceSearch(tools, q)).toEqual([]);
        // one prefix's matches without the index: the same
        for (const prefix of [q, ...index.keys()])
          expect(toolsWithPrefix(tools, prefix)).toEqual(index.get(prefix) ?? []);
        // every word's prefixes up to 32 characters are in it
        for (const word of names.flatMap(wordsOf))
          for (let n = 1; n <= Math.min(word.length, MAX_SEARCH_PREFIX); n++)
            expect(index.has(word.slice(0, n))).toBe(true);
      }),
      { seed: 20261125, numRuns: 300 },
    );
  });

  it("several words match the tools that each word alone matches, in the tools' order", () => {
    fc.assert(
      fc.property(
        fc.array(name, { minLength: 1, maxLength: 12 }),
        fc.array(fc.stringMatching(/^[a-z0-9]{1,3}$/), { minLength: 1, maxLength: 3 }),
        (names, words) => {
          const tools = names.map((n) => ({ name: n }));
          const every = words.map((w) => new Set(bruteForceSearch(tools, w)));
          const expected = tools.flatMap((t, i) => (every.every((matched) => matched.has(t)) ? [i] : []));
          expect(toolsWithEveryPrefix(tools, words)).toEqual(expected);
        },
      ),
      { seed: 20261128, numRuns: 200 },
    );
    expect(
      toolsWithEveryPrefix([{ name: "Sparrow SMS" }, { name: "SMS Sparrow" }, { name: "Sparrow" }], ["sparrow", "sms"]),
    ).toEqual([0, 1]);
    expect(toolsWithEveryPrefix([{ name: "Sparrow" }], [])).toEqual([]);
  });
});
