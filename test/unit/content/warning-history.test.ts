// What the last build printed, against this build's warnings: with nothing before, no news and no repeat; a warning of
// a file unchanged since (recalled from the content cache, or its text as the cache, or for a file changed in a
// build's last seconds this history, has it) was printed; a file whose text changed is news, all its warnings; a
// warning that depends on other files is compared as it was printed.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { ContentFile, KnownFiles } from "../../../scripts/content/load.ts";
import type { ContentWarning } from "../../../scripts/content/placeholders.ts";
import { checkWarnings } from "../../../scripts/content/warning-history.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";

const path = (name: string) => `content/tools/${name}.json`;
/** A content file as load.ts gives it: recalled from the cache, read with a settled signature, or just changed. */
const file = (name: string, source: string, how: "recalled" | "read" | "unsettled"): ContentFile => {
  const known = { signature: "s", data: {}, hash: source };
  return {
    file: path(name),
    name,
    data: {},
    source,
    ...(how === "recalled" ? { valid: true as const, known } : how === "read" ? { known } : {}),
  };
};
const todo = (name: string): ContentWarning => ({
  file: path(name),
  path: "shortDescription",
  kind: "todo",
  message: "TODO",
});
const sameName = (name: string): ContentWarning => ({
  file: path(name),
  path: "name",
  kind: "same-name",
  message: "twin",
});
/** The content cache a build started from: each file's text hash. */
const cache = (entries: [string, string][]): KnownFiles =>
  new Map(entries.map(([name, hash]) => [resolve(path(name)), { signature: "s", data: {}, hash }]));

describe("checkWarnings", () => {
  it("tells the warnings the last build printed from news, by the content cache and what it remembered", async () => {
    const store = await tempDir();
    try {
      const host = ["a host limit"];
      // a first build: a settled, b changed in its last seconds (the content cache will not have it)
      const first = checkWarnings(
        store.path,
        [[file("a", "1", "read"), file("b", "1", "unsettled")]],
        [todo("a"), todo("b")],
        host,
        cache([]),
      );
      expect(first.history).toEqual({ known: false, changed: [], seen: [], seenHost: [] });
      first.remember();

      // a recalled, b read anew with the text it had: both unchanged, every warning printed before.
      const files = [[file("a", "1", "recalled"), file("b", "1", "read")]];
      const same = checkWarnings(store.path, files, [todo("a"), todo("b")], host, cache([["a", "1"]]));
      expect(same.history).toEqual({ known: true, changed: [], seen: [0, 1], seenHost: [0] });
      same.remember();

      // b's text changed and c is new: their warnings are news; a's was printed; a's twin was not; the limit is gone.
      const edited = [[file("a", "1", "recalled"), file("b", "2", "read"), file("c", "1", "read")]];
      const warnings = [todo("a"), todo("b"), todo("c"), sameName("a")];
      const next = checkWarnings(
        store.path,
        edited,
        warnings,
        [],
        cache([
          ["a", "1"],
          ["b", "1"],
        ]),
      );
      expect(next.history).toEqual({ known: true, changed: [1, 2], seen: [0], seenHost: [] });
      next.remember();
      const after = [[file("a", "1", "recalled"), file("b", "2", "recalled"), file("c", "1", "recalled")]];
      const cached = cache([
        ["a", "1"],
        ["b", "2"],
        ["c", "1"],
      ]);
      expect(checkWarnings(store.path, after, warnings, [], cached).history.seen).toEqual([0, 1, 2, 3]);

      // A --full build (no cache to compare with) tells no file as changed.
      const full = checkWarnings(store.path, [[file("a", "9", "read")]], [todo("a")], [], cache([]));
      expect(full.history).toEqual({ known: true, changed: [], seen: [], seenHost: [] });
    } finally {
      await store.remove();
    }
  });
});
