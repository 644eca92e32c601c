// The pages of a list that differ between two versions of its items, counted without listing them, against the pages
// listed one by one.
import { describe, expect, it } from "vitest";
import { pageChanges } from "../../../scripts/io/tree-report.ts";

/** Every page (limit, offset) of a list as the bytes that decide it: its slice of items and the total. */
function pages(items: readonly string[], maxLimit: number): Map<string, string> {
  const all = new Map<string, string>();
  for (let limit = 1; limit <= maxLimit; limit++)
    for (let offset = 0; offset <= items.length; offset++)
      all.set(`${limit}/${offset}`, `${items.slice(offset, offset + limit).join(",")}|${items.length}`);
  return all;
}

function listed(before: readonly string[] | undefined, after: readonly string[] | undefined, maxLimit: number) {
  const a = before ? pages(before, maxLimit) : new Map<string, string>();
  const b = after ? pages(after, maxLimit) : new Map<string, string>();
  const counts = { changed: 0, added: 0, removed: 0 };
  for (const [page, body] of b) {
    if (!a.has(page)) counts.added++;
    else if (a.get(page) !== body) counts.changed++;
  }
  for (const page of a.keys()) if (!b.has(page)) counts.removed++;
  return counts;
}

const items = (n: number, tag = "") => Array.from({ length: n }, (_, i) => `item${i}${tag}`);

describe("pageChanges", () => {
  it("counts the pages whose slice holds a changed item, as listing every page does", () => {
    const before = items(12);
    for (const changed of [[0], [11], [5], [3, 4], [0, 11], [2, 7, 8]]) {
      const after = before.map((item, i) => (changed.includes(i) ? `${item}'` : item));
      expect(pageChanges(before, after, 5), String(changed)).toEqual(listed(before, after, 5));
    }
  });

  it("counts every page as changed, added or removed when the list's length changes (each page carries the total)", () => {
    expect(pageChanges(items(6), items(8), 4)).toEqual(listed(items(6), items(8), 4));
    expect(pageChanges(items(8), items(3), 4)).toEqual(listed(items(8), items(3), 4));
  });

  it("counts a new list as added and a list gone as removed; the same items change nothing", () => {
    expect(pageChanges(undefined, items(4), 3)).toEqual({ changed: 0, added: 15, removed: 0 });
    expect(pageChanges(items(4), undefined, 3)).toEqual({ changed: 0, added: 0, removed: 15 });
    expect(pageChanges(items(4), items(4), 3)).toEqual({ changed: 0, added: 0, removed: 0 });
  });
});
