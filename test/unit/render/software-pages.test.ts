import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  hashPages,
  type PageOffsets,
  PageRenderer,
  pageIndex,
  pageMeta,
} from "../../../scripts/render/software-pages.ts";

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

describe("hashPages: each page's SHA-256 and size, from one hash state per offset", () => {
  const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

  for (const category of [null, "crm", "Ñandú-ünicode"]) {
    it(`every page of every limit equals the hash of its bytes (category ${category})`, () => {
      const list = { filter: "x", category, items };
      const renderer = new PageRenderer(list);
      const maxLimit = 6;
      const hashed = hashPages(
        list,
        Array.from({ length: maxLimit }, () => "all"),
        maxLimit,
      );
      for (let limit = 1; limit <= maxLimit; limit++) {
        for (let offset = 0; offset <= items.length; offset++) {
          const page = Buffer.concat(renderer.pieces(limit, offset));
          const index = pageIndex(items.length, limit, offset);
          expect(hashed.digests.toString("hex", index * 32, index * 32 + 32), `${limit}/${offset}`).toBe(sha256(page));
          expect(hashed.sizes[index], `${limit}/${offset}`).toBe(page.byteLength);
        }
      }
    });
  }

  it("hashes only the pages a plan names, and leaves the others unhashed (size 0)", () => {
    const list = { filter: "x", category: null, items };
    const renderer = new PageRenderer(list);
    const plan: PageOffsets[] = [[1, 3], "all", [], [0]];
    const hashed = hashPages(list, plan, plan.length);
    for (let limit = 1; limit <= plan.length; limit++) {
      const wanted = plan[limit - 1]!;
      for (let offset = 0; offset <= items.length; offset++) {
        const index = pageIndex(items.length, limit, offset);
        if (wanted === "all" || wanted.includes(offset))
          expect(hashed.digests.toString("hex", index * 32, index * 32 + 32)).toBe(
            sha256(Buffer.concat(renderer.pieces(limit, offset))),
          );
        else expect(hashed.sizes[index], `${limit}/${offset}`).toBe(0);
      }
    }
  });
});
