// The content cache stores records field by field: whatever goes in comes back equal, fields in the same order, a
// missing field missing, repeated values as one shared table, arrays as lengths and items.
import { deserialize, serialize } from "node:v8";
import { expect, it } from "vitest";
import { columnValues, fromColumns, toColumn, toColumns } from "../../../scripts/content/cache-columns.ts";

/** Through V8's serializer, as the cache file holds them. */
const stored = <T>(value: T): T => deserialize(serialize(value)) as T;

it("gives back every column of values as it was", () => {
  const columns: unknown[][] = [
    [],
    ["a", "b", "c"],
    ["same", "same", "same", "same", "same", "other", "same", "same"],
    [1, null, 2.5, undefined, { deep: [1, { x: "y" }] }],
    [["crm", "email"], [], undefined, ["crm"], ["crm", "seo", "email"]],
    [[[1, 2], [3]], [[4]], undefined],
    [null, null, null, null, null, { name: "a category" }, null, null],
  ];
  for (const values of columns) expect(columnValues(stored(toColumn(values)))).toEqual(values);
});

it("keeps a value repeated across many records once, shared by all of them", () => {
  const values = Array.from({ length: 100 }, (_, i) => (i % 2 ? "context-a" : "context-b"));
  const column = toColumn(values);
  expect("table" in column && column.table).toEqual(["context-b", "context-a"]);
  const slugs = Array.from({ length: 40 }, (_, i) => [`category-${i % 3}`, `category-${(i + 1) % 3}`]);
  const lists = toColumn(slugs);
  expect("counts" in lists && "table" in lists.items && lists.items.table).toHaveLength(3);
  expect(columnValues(stored(lists))).toEqual(slugs);
});

it("gives records back with their fields in order, a missing field missing, a missing record missing", () => {
  const records = [
    { name: "Acme", slug: "acme", categories: ["crm"], rating: 4.5, hasApi: true },
    undefined,
    { name: "Bolt", slug: "bolt", categories: [], hasApi: false },
    { name: "Cairn", slug: "cairn", categories: ["crm", "email"], rating: null, hasApi: true },
  ];
  const fields = ["name", "slug", "categories", "rating", "hasApi"];
  const back = fromColumns(stored(toColumns(records, fields)));
  expect(back).toEqual(records);
  expect(back.map((r) => r && Object.keys(r))).toEqual(records.map((r) => r && Object.keys(r)));
  expect(Object.hasOwn(back[2]!, "rating")).toBe(false);
  // Without a list of fields: every field any record has, in the order first seen.
  const memos = [{ context: "c", summary: "{}" }, undefined, { context: "c", summary: "[]", extra: 1 }];
  expect(fromColumns(stored(toColumns(memos)))).toEqual(memos);
});
