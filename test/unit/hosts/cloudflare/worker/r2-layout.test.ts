// A list page in R2 is the Worker's envelope around one range of its list's run: byte for byte the page file a pages
// build writes, for every limit and offset, from the run file the build writes and the upload reads (its items'
// lengths from the build's index, or the run's offsets file).
import { describe, expect, it } from "vitest";
import { PAGE_PREFIX, pageOfFile, pageSlice, pageSuffix } from "../../../../../scripts/api/runtime/page-envelope.ts";
import { layout } from "../../../../../scripts/api/runtime/route-table.ts";
import { listKey } from "../../../../../scripts/hosts/cloudflare/worker/r2-layout.ts";
import { parseOffsets, renderOffsets, renderRun } from "../../../../../scripts/render/list-runs.ts";
import { PageRenderer } from "../../../../../scripts/render/software-pages.ts";

// Items as the build makes them: compact JSON, some non-ASCII (byte lengths differ from string lengths), a comma
// and a bracket inside a string.
const items = [{ name: "Ñandú" }, { name: "a,b]" }, { name: "Kumo 雲" }, { name: "zeta", n: 1 }].map((i) =>
  JSON.stringify(i),
);

describe("a page as a window on its list's run", () => {
  for (const [category, list] of [
    [null, items],
    ["crm é", items],
    ["empty", []],
  ] as const) {
    it(`prefix + one range of the run + suffix is the build's page at every limit and offset (category ${category}, ${list.length} items)`, () => {
      const page = { filter: "x", category, items: [...list] };
      const renderer = new PageRenderer(page);
      const run = Buffer.from(renderRun(page.items));
      const lengths = page.items.map((item) => Buffer.byteLength(item));
      const offsets = parseOffsets(renderOffsets(page.items));
      expect(offsets).toHaveLength(list.length + 1);
      for (let limit = 1; limit <= 6; limit++)
        for (let offset = 0; offset <= list.length; offset++) {
          const expected = Buffer.concat(renderer.pieces(limit, offset));
          const suffix = Buffer.from(pageSuffix(lengths.length, limit, offset, JSON.stringify(category)));
          const { start, length } = pageSlice(lengths, limit, offset);
          const fromLengths = Buffer.concat([Buffer.from(PAGE_PREFIX), run.subarray(start, start + length), suffix]);
          expect(fromLengths.equals(expected), `${limit}/${offset} from lengths`).toBe(true);
          // two offsets read by position: items o…e−1 are [off[o], off[e] − 1), nothing when o ≥ e
          const end = Math.min(offset + limit, list.length);
          const slice = offset < end ? run.subarray(offsets[offset]!, offsets[end]! - 1) : Buffer.alloc(0);
          const fromOffsets = Buffer.concat([Buffer.from(PAGE_PREFIX), slice, suffix]);
          expect(fromOffsets.equals(expected), `${limit}/${offset} from offsets`).toBe(true);
        }
    });
  }
});

describe("page files as lists, limits and offsets", () => {
  const template = layout("/v1").page;
  it("a page file names its list's key, its limit and its offset", () => {
    expect(pageOfFile(template, "v1/software/pages/all/20/0.json")).toEqual({
      list: listKey(template, "all"),
      limit: 20,
      offset: 0,
    });
    expect(pageOfFile(template, "v1/software/pages/category/seo/3/17.json")).toEqual({
      list: "v1/software/pages/category/seo",
      limit: 3,
      offset: 17,
    });
  });
  it("any other file is no page", () => {
    for (const file of [
      "v1/software/pages.json",
      "v1/software/alpha.json",
      "v1/software/pages/20/0.json",
      "v1/software/pages/all/x/0.json",
      "v1/software/pages/all/20/0.json.gz",
      "errors/offset_out_of_range/all.json",
    ])
      expect(pageOfFile(template, file), file).toBeNull();
  });
});
