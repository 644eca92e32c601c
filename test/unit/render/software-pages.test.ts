import { describe, expect, it } from "vitest";
import { PageRenderer, pageMeta } from "../../../scripts/render/software-pages.ts";

// Items as the build makes them: compact JSON, some non-ASCII (byte offsets differ from string offsets).
const items = [{ name: "Ñandú" }, { name: "alpha" }, { name: "Kumo 雲" }, { name: "zeta", n: 1 }].map((i) =>
  JSON.stringify(i),
);

describe("PageRenderer: a page is its slice of the joined items between prefix and suffix", () => {
  for (const category of [null, "crm"]) {
    it(`every limit and offset equals JSON.stringify of the same page (category ${category})`, () => {
      const renderer = new PageRenderer({ filter: "x", category, items });
      for (let limit = 1; limit <= 6; limit++) {
        for (let offset = 0; offset <= items.length; offset++) {
          const expected = JSON.stringify({
            data: items.slice(offset, offset + limit).map((i) => JSON.parse(i)),
            meta: pageMeta(items.length, limit, offset, category),
          });
          const pieces = renderer.pieces(limit, offset);
          expect(Buffer.concat(pieces).toString("utf8"), `${limit}/${offset}`).toBe(expected);
          expect(pieces.length).toBeLessThanOrEqual(3);
        }
      }
    });
  }

  it("an empty list has one page per limit: no data", () => {
    const renderer = new PageRenderer({ filter: "x", category: "empty", items: [] });
    expect(Buffer.concat(renderer.pieces(20, 0)).toString()).toBe(
      '{"data":[],"meta":{"total":0,"limit":20,"offset":0,"category":"empty"}}',
    );
  });
});
