// A hash tree shard read back entry by entry (eachShardEntry) gives what was written, whichever writer wrote it.
import { describe, expect, it } from "vitest";
import { eachShardEntry, parseShard, ShardBody, shardBody } from "../../../scripts/render/hash-tree.ts";

const hex = (c: string) => c.repeat(64);
const read = (body: string) => {
  const entries: [string, string, number][] = [];
  eachShardEntry(body, (target, sha256, size) => entries.push([target, sha256, size]));
  return entries;
};

describe("eachShardEntry", () => {
  it("reads back the small shards' entries, escaped targets included, in order", () => {
    const entries: [string, { sha256: string; size: number }][] = [
      ["/v1/search?q=caf\u00e9", { sha256: hex("a"), size: 12 }],
      ['/v1/software/odd"quote\\slash', { sha256: hex("b"), size: 0 }],
      ["/v1/best/email", { sha256: hex("c"), size: 123456 }],
    ];
    const body = shardBody("catalog", entries);
    expect(JSON.parse(body).meta).toEqual({ shard: "catalog", targets: 3 });
    expect(read(body)).toEqual(entries.map(([t, b]) => [t, b.sha256, b.size]));
    expect([...parseShard(body)]).toEqual(entries);
  });

  it("reads back a list's shard written into bytes, digests as hex", () => {
    const shard = new ShardBody("list-0", 16);
    const digests = Buffer.alloc(64, 0xab);
    shard.add(JSON.stringify("/v1/software?limit=1&offset=0"), { digests, from: 0 }, 99);
    shard.add(JSON.stringify("/v1/software?limit=1&offset=1"), hex("d"), 7);
    const body = Buffer.from(shard.finish()).toString("utf8");
    expect(read(body)).toEqual([
      ["/v1/software?limit=1&offset=0", "ab".repeat(32), 99],
      ["/v1/software?limit=1&offset=1", hex("d"), 7],
    ]);
  });

  it("refuses a body whose entries are not as its meta counts them", () => {
    const body = shardBody("catalog", [["/v1/categories", { sha256: hex("e"), size: 5 }]]);
    expect(() => read(body.replace('"targets":1', '"targets":2'))).toThrow(/not as the build writes it/);
    expect(() => read(body.replace(hex("e"), "E".repeat(64)))).toThrow(/not as the build writes it/);
    expect(read(shardBody("empty", []))).toEqual([]);
  });
});
