import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { etagOf } from "../../../../scripts/api/etag-node.ts";
import { FileCache, FilesUnavailable } from "../../../../scripts/hosts/node/server/file-cache.ts";
import { tempDir } from "../../../helpers/fs/dirs.ts";

describe("FileCache: dist/ files in memory, bounded", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir();
    await mkdir(join(dir.path, "v1"));
    for (const name of ["a", "b", "c", "d"]) await writeFile(join(dir.path, `v1/${name}.json`), name.repeat(100));
    // only a body worth compressing has siblings (MIN_COMPRESS_BYTES)
    await writeFile(join(dir.path, "v1/big.json"), "z".repeat(2000));
    await writeFile(join(dir.path, "v1/big.json.gz"), "gz");
  });
  afterEach(() => dir.remove());

  it("loads a file with a content-hash ETag and its precompressed siblings; remembers misses", async () => {
    const cache = new FileCache(dir.path);
    const a = await cache.get("v1/a.json");
    expect(a?.etag).toBe(etagOf(Buffer.from("a".repeat(100))));
    expect(a?.encoded).toEqual([]);
    const big = await cache.get("v1/big.json");
    expect(big?.encoded.map((e) => e.name)).toEqual(["gzip"]);
    expect(cache.peek("v1/missing.json")).toBeUndefined();
    expect(await cache.get("v1/missing.json")).toBeNull();
    expect(await cache.get("v1/missing.json")).toBeNull();
    expect(cache.peek("v1/missing.json")).toBeNull();
  });

  it("keeps a file from its second request on: one asked for once is read, answered and dropped", async () => {
    const cache = new FileCache(dir.path);
    expect((await cache.get("v1/a.json"))?.body.toString()).toBe("a".repeat(100));
    expect(cache.peek("v1/a.json"), "not kept after one request").toBeUndefined();
    await cache.get("v1/b.json");
    await cache.get("v1/a.json");
    expect(cache.peek("v1/a.json")?.body.toString(), "kept after its second").toBe("a".repeat(100));
    expect(cache.peek("v1/b.json")).toBeUndefined();
  });

  it("with no room for recently seen names, a file asked for again long after its first request is still not kept", async () => {
    const cache = new FileCache(dir.path, { recentBytes: 1 }); // no room for even one name
    await cache.get("v1/a.json");
    await cache.get("v1/b.json");
    await cache.get("v1/a.json");
    expect(cache.peek("v1/a.json")).toBeUndefined();
  });

  it("stays within its byte budget, giving a recently used file a second chance over an unused one", async () => {
    // room for three entries, bodies and keys; every file kept on its first request
    const cache = new FileCache(dir.path, { maxBytes: 3 * (100 + 2 * "v1/a.json".length + 160), recentBytes: 0 });
    await cache.get("v1/a.json");
    await cache.get("v1/b.json");
    cache.peek("v1/a.json"); // a is used again; b is not
    await cache.get("v1/c.json");
    await cache.get("v1/d.json");
    expect(cache.peek("v1/a.json")).not.toBeUndefined();
    expect(cache.peek("v1/b.json")).toBeUndefined();
    expect(cache.peek("v1/d.json")).not.toBeUndefined();
  });

  it("counts a miss's key in its budget: long unique names cannot grow it for good", async () => {
    const cache = new FileCache(dir.path, 64 * 1024);
    for (let i = 0; i < 200; i++) expect(await cache.get(`v1/${"x".repeat(15_000)}${i}.json`)).toBeNull(); // ENAMETOOLONG is a miss
    expect(cache.size).toBeLessThanOrEqual(64 * 1024);
  });

  it("out of descriptors, it retries and then fails as unavailable: never a miss", async () => {
    let failures = 0;
    const cache = new FileCache(dir.path, {
      retryDelays: [1, 1],
      readFile: (path) =>
        failures++ < 2 ? Promise.reject(Object.assign(new Error("EMFILE"), { code: "EMFILE" })) : readFile(path),
    });
    expect((await cache.get("v1/a.json"))?.body.toString()).toBe("a".repeat(100));
    failures = -100;
    await expect(cache.get("v1/b.json")).rejects.toBeInstanceOf(FilesUnavailable);
    expect(cache.peek("v1/b.json")).toBeUndefined();
  });
});
