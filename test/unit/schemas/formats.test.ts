// formats.cjs: the "uri" format tries a short pattern for plain http(s) addresses before ajv-formats' full one. It
// must never accept what the full pattern refuses, or content would pass here and fail a user's validator.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { formats, PLAIN_HTTP_URI } from "../../../scripts/schemas/formats.cjs";
import { seeded } from "../../helpers/random/seeded.ts";

const { fullFormats } = createRequire(import.meta.url)("ajv-formats/dist/formats") as {
  fullFormats: { uri: (s: string) => boolean };
};
const uri = formats.uri as (s: string) => boolean;

describe("the uri format", () => {
  it("answers as ajv-formats does for addresses good and bad", () => {
    const cases = [
      "https://example.com",
      "https://example.com/",
      "http://example.com:8080/a/b?c=d&e=f#g",
      "https://EXAMPLE.com/%7Euser/it's(ok)*+,;=:@",
      "https://example.com/a%2",
      "https://example.com/a b",
      "https://exa mple.com",
      "https://[::1]/x",
      "https://user@example.com/",
      "mailto:someone@example.com",
      "ftp://example.com/file",
      "//example.com",
      "example.com",
      "https://",
      "http://example.com/\u00e9",
      "https://example.com/a?b=<c>",
      "https://example.com#a#b",
      "",
    ];
    for (const s of cases) expect([s, uri(s)]).toEqual([s, fullFormats.uri(s)]);
  });

  it("never lets the short pattern accept what the full one refuses (20,000 seeded strings)", () => {
    const next = seeded(12);
    // Mostly characters an address may hold, some that it may hold only in places (: @ / ? # %), a few never.
    const common = "aZ09fF-._~!$&'()*+,;=:@/?#%";
    const rare = '[] "<>\\^`{|}\u00e9';
    const pick = (chars: string) => chars[Math.floor(next() * chars.length)];
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      let s = next() < 0.5 ? "http://" : "https://";
      const length = Math.floor(next() * 24);
      for (let j = 0; j < length; j++) s += next() < 0.97 ? pick(common) : pick(rare);
      if (PLAIN_HTTP_URI.test(s)) {
        accepted++;
        expect([s, fullFormats.uri(s)]).toEqual([s, true]);
      }
    }
    // The test means something only if the short pattern accepted a good share of them.
    expect(accepted).toBeGreaterThan(1_000);
  });
});
