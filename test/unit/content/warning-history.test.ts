// What the last good build warned about, against this build's warnings: nothing before is no news and no repeat; the
// same warnings of unchanged files were printed; a file whose text changed is news, all its warnings.
import { describe, expect, it } from "vitest";
import type { ContentFile } from "../../../scripts/content/load.ts";
import type { ContentWarning } from "../../../scripts/content/placeholders.ts";
import { checkWarnings } from "../../../scripts/content/warning-history.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";

const file = (name: string, source: string, recalled = false): ContentFile => ({
  file: `content/tools/${name}.json`,
  name,
  data: {},
  source,
  ...(recalled ? { valid: true as const } : {}),
});
const todo = (name: string): ContentWarning => ({
  file: `content/tools/${name}.json`,
  path: "shortDescription",
  kind: "todo",
  message: "still holds TODO text",
});

describe("checkWarnings", () => {
  it("tells printed warnings from news, by the text of each warning's file", async () => {
    const store = await tempDir();
    try {
      const host = ["a host limit"];
      const first = checkWarnings(store.path, [[file("a", "1"), file("b", "1")]], [todo("a"), todo("b")], host);
      expect(first.history).toEqual({ known: false, changed: [], seen: [], seenHost: [] });
      first.remember();

      // Nothing changed (b read anew, its text the same): every warning was printed.
      const same = checkWarnings(store.path, [[file("a", "1", true), file("b", "1")]], [todo("a"), todo("b")], host);
      expect(same.history).toEqual({ known: true, changed: [], seen: [0, 1], seenHost: [0] });

      // b's text changed and c is new: their warnings are news; a's was printed; the host limit is gone.
      const files = [[file("a", "1", true), file("b", "2"), file("c", "1")]];
      const next = checkWarnings(store.path, files, [todo("a"), todo("b"), todo("c")], []);
      expect(next.history).toEqual({ known: true, changed: [1, 2], seen: [0], seenHost: [] });
      next.remember();
      expect(checkWarnings(store.path, files, [todo("a"), todo("b"), todo("c")], []).history.seen).toEqual([0, 1, 2]);
    } finally {
      await store.remove();
    }
  });
});
