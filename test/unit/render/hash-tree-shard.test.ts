// The hash tree's format 2 (E2): a shard's entries as written and read back, a list's entry (its run and pieces), the
// catalog body's entry with its parts, the root's meta.
import { describe, expect, it } from "vitest";
import {
  bodyEntry,
  eachShardEntry,
  HASH_TREE_FORMAT,
  listEntry,
  listShardName,
  listTarget,
  parseShard,
  rootBody,
  shardBody,
} from "../../../scripts/render/hash-tree.ts";

const hex = (c: string) => c.repeat(64);
const read = (body: string) => {
  const entries: [string, string, number][] = [];
  eachShardEntry(body, (target, sha256, size) => entries.push([target, sha256, size]));
  return entries;
};

describe("the hash tree, format 2", () => {
  it("a shard's body entries read back in order, escaped targets included; its meta names the format", () => {
    const entries: [string, { sha256: string; size: number }][] = [
      ["/v1/search?q=caf\u00e9", { sha256: hex("a"), size: 12 }],
      ['/v1/software/odd"quote\\slash', { sha256: hex("b"), size: 0 }],
      ["/v1/best/email", { sha256: hex("c"), size: 123456 }],
    ];
    const body = shardBody(
      "catalog",
      entries.map(([t, b]) => [t, bodyEntry(b)]),
    );
    expect(JSON.parse(body).meta).toEqual({ format: HASH_TREE_FORMAT, shard: "catalog", targets: 3 });
    expect(HASH_TREE_FORMAT).toBe(2);
    expect(read(body)).toEqual(entries.map(([t, b]) => [t, b.sha256, b.size]));
    // read back as text, an entry renders the same bytes again (the writer patches shards this way)
    expect(shardBody("catalog", parseShard(body))).toBe(body);
  });

  it("a list's shard: one entry, the list's target, its run's hash and size, category, total and pieces", () => {
    const pieces = [
      { id: hex("1"), items: 60, size: 20_000 },
      { id: hex("2"), items: 3, size: 900 },
    ];
    expect(listShardName("all")).toBe("list");
    expect(listShardName("category/email-marketing")).toBe("category-email-marketing");
    expect(listTarget("/v1", null)).toBe("/v1/software");
    expect(listTarget("/v1", "seo")).toBe("/v1/software?category=seo");
    const body = shardBody("category-seo", [
      [listTarget("/v1", "seo"), listEntry({ sha256: hex("d"), size: 20_896 }, "seo", pieces)],
    ]);
    expect(JSON.parse(body)).toEqual({
      data: {
        "/v1/software?category=seo": {
          sha256: hex("d"),
          size: 20_896,
          category: "seo",
          total: 63,
          pieces: [
            [hex("1"), 60, 20_000],
            [hex("2"), 3, 900],
          ],
        },
      },
      meta: { format: 2, shard: "category-seo", targets: 1 },
    });
    // a list is no body served by URL: no entry to read as one
    expect(read(body)).toEqual([]);
  });

  it("a body made of pieces names its parts: texts and pieces, in order", () => {
    const entry = bodyEntry({ sha256: hex("e"), size: 99 }, [
      { text: '{"data":{"software":[' },
      { pieces: [{ id: hex("3"), items: 2, size: 40 }] },
      { text: '],"categories":[]},"meta":{"softwareCount":2,"categoryCount":0}}' },
    ]);
    expect(JSON.parse(entry)).toEqual({
      sha256: hex("e"),
      size: 99,
      parts: [
        { text: '{"data":{"software":[' },
        { pieces: [[hex("3"), 2, 40]] },
        { text: '],"categories":[]},"meta":{"softwareCount":2,"categoryCount":0}}' },
      ],
    });
    expect(read(shardBody("catalog", [["/v1/export/catalog.json", entry]]))).toEqual([
      ["/v1/export/catalog.json", hex("e"), 99],
    ]);
  });

  it("the root names each shard sorted, with the targets and the distinct pieces of the tree", () => {
    const root = rootBody(
      new Map([
        ["software-0", { sha256: hex("f"), size: 10 }],
        ["catalog", { sha256: hex("0"), size: 20 }],
      ]),
      7,
      3,
    );
    expect(Object.keys(JSON.parse(root).data)).toEqual(["catalog", "software-0"]);
    expect(JSON.parse(root).meta).toEqual({ format: 2, shards: 2, targets: 7, pieces: 3 });
  });

  it("refuses a body not as the build writes it: another format, a count that differs, a bad hash", () => {
    const body = shardBody("catalog", [["/v1/categories", bodyEntry({ sha256: hex("e"), size: 5 })]]);
    expect(() => read(body.replace('"targets":1', '"targets":2'))).toThrow(/not as the build writes it/);
    expect(() => read(body.replace(hex("e"), "E".repeat(64)))).toThrow(/not as the build writes it/);
    expect(() => read(body.replace('"format":2', '"format":1'))).toThrow(/not as the build writes it/);
    expect(read(shardBody("empty", []))).toEqual([]);
  });
});
