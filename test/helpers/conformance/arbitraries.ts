// fast-check generators of request targets: query strings for /software and paths, mixing valid and junk pieces.
import fc from "fast-check";
import type { Catalog } from "./catalog.ts";

/** characters a URL parser sends unchanged in a query or path, and a few escapes (valid, junk and dangerous) */
const junkUnit = fc.constantFrom(..."abcXYZ019-._~!$()*+,;:@".split(""), "%20", "%zz", "%31", "%e9", "%", "/");
const junk = fc.array(junkUnit, { maxLength: 6 }).map((units) => units.join(""));

const encodeFirst = (s: string, upper: boolean) => {
  const hex = s.charCodeAt(0).toString(16);
  return `%${upper ? hex.toUpperCase() : hex}${s.slice(1)}`;
};

export function queryArbitrary(catalog: Catalog): fc.Arbitrary<string> {
  const total = catalog.tools.length;
  const slugs = catalog.categories.map((c) => c.slug);
  const limit = fc.oneof(
    fc.integer({ min: 1, max: 100 }).map(String),
    fc.constantFrom("0", "01", "101", "-1", "+5", "5.0", "", "1e1", "%35", "100", "1"),
    junk,
  );
  const offset = fc.oneof(
    fc.integer({ min: 0, max: 20 }).map(String),
    fc.integer({ min: 0, max: total + 2 }).map(String),
    fc.constantFrom("00", "01", "-1", "+0", "", "%30", "9".repeat(25)),
    junk,
  );
  const category = fc.oneof(
    { arbitrary: fc.constantFrom(...slugs), weight: 3 },
    fc
      .constantFrom(...slugs)
      .chain((s) => fc.constantFrom(s.toUpperCase(), encodeFirst(s, false), `${s}x`, `category%2F${s}`, `..%2f${s}`)),
    fc.constantFrom("nope", "", "all", "../all", "..%2fall"),
    junk,
  );
  const unknownName = fc.constantFrom(
    "LIMIT",
    "Limit",
    "OFFSET",
    "Category",
    "foo",
    "%6cimit",
    "limit[]",
    "",
    "utm_source",
  );
  const piece = fc
    .tuple(
      fc.oneof(
        { arbitrary: fc.tuple(fc.constant("limit"), limit), weight: 3 },
        { arbitrary: fc.tuple(fc.constant("offset"), offset), weight: 3 },
        { arbitrary: fc.tuple(fc.constant("category"), category), weight: 3 },
        fc.tuple(unknownName, junk),
      ),
      fc.integer({ min: 0, max: 9 }),
    )
    .map(([[name, value], roll]) => (roll === 0 ? name : `${name}=${value}`)); // one in ten bare, whose value is ""
  return fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join("&"));
}

/** paths shaped like the endpoints (mostly), with mutated words and slugs; `separators` adds %2f, %5c, %00, CRLF */
export function pathArbitrary(catalog: Catalog, { separators }: { separators: boolean }): fc.Arbitrary<string> {
  const base = catalog.basePath;
  const tools = catalog.tools.map((t) => t.slug);
  const categories = catalog.categories.map((c) => c.slug);
  const word = fc.constantFrom(
    "software",
    "categories",
    "best",
    "openapi.json",
    "search",
    "export",
    "catalog.json",
    "sync",
    "index.json",
    "pieces",
    "pages",
    "all",
    "category",
    "20",
    "0.json",
    "routes.json",
    "errors",
    "not_found.json",
    ".env",
    base.slice(1),
    "SOFTWARE",
    "index.html",
  );
  const mutate = (s: string) =>
    fc.constantFrom(
      s,
      s,
      s,
      s.toUpperCase(),
      encodeFirst(s, false),
      encodeFirst(s, true),
      `${s}.json`,
      `${s}-x`,
      `${s}%20`,
    );
  const odd = separators
    ? fc.constantFrom("%2f", "a%2Fb", "%5c", "x%5Cy", "%00", "%0d%0a", "%2e", "..%2f", "%2e%2e%2f")
    : fc.constantFrom("", "%zz", "%", "%e9", "%C3%A9", "%20", "~", "-", "_", "a:b", "@x");
  /** a slug-ish segment: real slugs (mostly of the right kind), mutated, odd, or a real slug with an odd piece inside */
  const slugish = (right: string[]) => {
    const real = fc.oneof(
      { arbitrary: fc.constantFrom(...right), weight: 4 },
      fc.constantFrom(...tools, ...categories),
    );
    return fc.oneof(
      { arbitrary: real, weight: 4 },
      real.chain(mutate),
      odd,
      fc.tuple(real, odd).map(([s, o]) => `${s}${o}${s}`),
    );
  };
  const endpoint = (name: string) => fc.oneof({ arbitrary: fc.constant(name), weight: 4 }, mutate(name));
  const rest = fc.oneof(
    fc.tuple(endpoint("software"), fc.option(slugish(tools))).map(([w, s]) => (s === null ? `/${w}` : `/${w}/${s}`)),
    fc
      .tuple(endpoint("best"), fc.option(slugish(categories), { freq: 6 }))
      .map(([w, s]) => (s === null ? `/${w}` : `/${w}/${s}`)),
    endpoint("categories").map((w) => `/${w}`),
    endpoint("openapi.json").map((w) => `/${w}`),
    fc.array(fc.oneof(word, slugish(tools)), { maxLength: 4 }).map((segments) => segments.map((x) => `/${x}`).join("")),
  );
  const prefix = fc.oneof(
    { arbitrary: fc.constant(base), weight: 9 },
    fc.constantFrom("", "/v2", base.toUpperCase(), `${base}x`),
  );
  const apiPath = fc.tuple(prefix, rest, fc.constantFrom("", "", "", "/", "//")).map(([p, r, tail]) => p + r + tail);
  if (catalog.assets.length === 0) return apiPath;
  // the docs assets, exact or nearly (served only at exactly their raw path)
  const asset = fc
    .constantFrom(...catalog.assets.map((a) => a.path))
    .chain((p) => fc.constantFrom(p, p, `${p}/`, `/${p}`, p.toUpperCase(), `${p}x`));
  return fc.oneof({ arbitrary: apiPath, weight: 12 }, asset);
}
