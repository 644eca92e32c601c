// The raw-target regexes of the nginx config, checked against the route table's semantics as the Node server reads them:
// a raw path segment is decoded with decodeURIComponent (P3), a raw query is split on & and = without decoding (Q1, Q6, Q7).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LIMIT_PATTERN } from "../../../../scripts/api/runtime/route-table.ts";
import { SLUG_PATTERN } from "../../../../scripts/content/schema.ts";
import {
  DECODABLE_SEGMENT,
  encodedLiteral,
  encodedSegmentPattern,
  queryPresent,
  queryRepeated,
  queryValue,
  unsafeForDecodedUri,
} from "../../../../scripts/hosts/nginx/regex.ts";

const runs = { seed: 20261123, numRuns: 3000 };
const whole = (regex: string) => new RegExp(`^(?:${regex})$`);

/** What the Node server makes of one raw segment: its decoding, or undefined (refused by the parser or undecodable). */
function decoded(raw: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: controls are exactly what the request target may not hold
  if (raw === "" || /[\x00-\x20\x7f-\xff]/.test(raw)) return undefined; // not a valid request-target character
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

const hex = fc.constantFrom(..."0123456789abcdefABCDEF");
/** raw segments: printable characters, valid and invalid escapes, UTF-8 sequences, and characters no target may hold */
const rawSegment = fc
  .array(
    fc.oneof(
      fc.constantFrom(..."abcxyz019-._~!$&'()*+,;=:@AZ"),
      fc.tuple(hex, hex).map(([a, b]) => `%${a}${b}`),
      fc.constantFrom(
        "%2F",
        "%2f",
        "%2D",
        "%2d",
        "%61",
        "%7A",
        "%7a",
        "%41",
        "%C3%A9",
        "%E2%82%AC",
        "%F0%9F%98%80",
        "%ED%A0%80",
        "%C0%AF",
        "%",
        "%z",
        "%zz",
        "%0",
      ),
      fc.constantFrom(" ", "\t", "\x7f", "\xe9", "\x00"),
    ),
    { minLength: 0, maxLength: 6 },
  )
  .map((units) => units.join(""));

describe("nginx raw path regexes", () => {
  it("P3 DECODABLE_SEGMENT accepts exactly the segments decodeURIComponent decodes", () => {
    fc.assert(
      fc.property(rawSegment, (raw) => {
        expect(whole(DECODABLE_SEGMENT).test(raw), JSON.stringify(raw)).toBe(decoded(raw) !== undefined);
      }),
      runs,
    );
  });

  for (const pattern of [SLUG_PATTERN, "^[a-z]{2,3}$", "^(?:ab|c\\.d)+x?$", "^\\d+$", "^[A-Z_~%]{1,2}$"]) {
    it(`P3 the encoded form of ${pattern} matches a raw segment exactly when its decoding matches ${pattern}`, () => {
      const encoded = whole(encodedSegmentPattern(pattern));
      fc.assert(
        fc.property(rawSegment, (raw) => {
          const value = decoded(raw);
          expect(encoded.test(raw), JSON.stringify(raw)).toBe(value !== undefined && new RegExp(pattern).test(value));
        }),
        runs,
      );
    });
  }

  it("P3 a literal segment matches itself and every percent-encoding of its characters, in either hex case", () => {
    const literal = whole(encodedLiteral("openapi.json"));
    for (const raw of ["openapi.json", "%6Fpenapi.json", "%6fpenapi%2Ejson", "%6F%70%65%6E%61%70%69%2E%6A%73%6F%6E"])
      expect(literal.test(raw), raw).toBe(true);
    for (const raw of ["OPENAPI.JSON", "openapi%2Fjson", "openapixjson", "openapi.json/", "%256Fpenapi.json"])
      expect(literal.test(raw), raw).toBe(false);
  });

  it("refuses patterns it cannot rewrite exactly, rather than serving a wrong answer", () => {
    for (const pattern of ["[a-z]+", "^a|b$", "^(?=a)a$", "^(a)\\1$", "^.$", "^[^a]$"])
      expect(() => encodedSegmentPattern(pattern), pattern).toThrow();
    expect(unsafeForDecodedUri("^[a-z./]+$")).toBeDefined();
    expect(unsafeForDecodedUri(SLUG_PATTERN)).toBeUndefined();
  });
});

/** The Node server's reading of a raw query: pieces split on &, name before the first = (Q1, Q6, Q7). */
function given(query: string, name: string): string[] {
  if (query === "") return [];
  return query
    .split("&")
    .map((piece) =>
      piece.includes("=") ? [piece.slice(0, piece.indexOf("=")), piece.slice(piece.indexOf("=") + 1)] : [piece, ""],
    )
    .filter(([n]) => n === name)
    .map(([, v]) => v!);
}

const rawQuery = fc
  .array(
    fc.constantFrom(
      "limit",
      "LIMIT",
      "Limit",
      "limitx",
      "xlimit",
      "%6Cimit",
      "=",
      "==",
      "&",
      "&&",
      "5",
      "05",
      "a",
      "?",
      "%26",
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(""));

describe("nginx raw query regexes", () => {
  it("Q6 Q7 queryRepeated / queryPresent count exact-name pieces as the server does", () => {
    fc.assert(
      fc.property(rawQuery, (query) => {
        const count = given(query, "limit").length;
        expect(new RegExp(queryRepeated("limit")).test(query), query).toBe(count >= 2);
        expect(new RegExp(queryPresent("limit")).test(query), query).toBe(count >= 1);
      }),
      runs,
    );
  });

  it("Q1 queryValue captures the first piece's raw value, empty when the piece has no =", () => {
    fc.assert(
      fc.property(rawQuery, (query) => {
        const values = given(query, "limit");
        const match = new RegExp(queryValue("limit", "v")).exec(query);
        expect(match?.groups?.v ?? (match ? "" : undefined), query).toBe(values[0]);
      }),
      runs,
    );
  });

  it("Q2 the limit pattern is used verbatim on the raw value (no decoding: %35 is not 5)", () => {
    const value = new RegExp(queryValue("limit", "v")).exec("limit=%35")?.groups?.v;
    expect(value).toBe("%35");
    expect(new RegExp(LIMIT_PATTERN).test(value!)).toBe(false);
  });
});
