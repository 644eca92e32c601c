import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { etagOf } from "../../../../../scripts/api/etag-node.ts";
import { StorageFault } from "../../../../../scripts/api/runtime/build-index.ts";
import { FileCache, FilesUnavailable } from "../../../../../scripts/hosts/node/server/file-cache.ts";
import { tempDir } from "../../../../helpers/fs/dirs.ts";

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

  it("loads a file with a content-hash ETag and its precompressed siblings", async () => {
    const cache = new FileCache(dir.path);
    const a = await cache.get("v1/a.json", 100);
    expect(a.etag).toBe(etagOf(Buffer.from("a".repeat(100))));
    expect(a.encoded).toEqual([]);
    const big = await cache.get("v1/big.json", 2000);
    expect(big.encoded.map((e) => e.name)).toEqual(["gzip"]);
  });

  it("H7 a file the build names that is missing, cut or unreadable is a storage fault, never kept: read again once it is back", async () => {
    const cache = new FileCache(dir.path, { recentBytes: 0 });
    for (let i = 0; i < 2; i++) await expect(cache.get("v1/missing.json", 10)).rejects.toBeInstanceOf(StorageFault);
    expect(cache.peek("v1/missing.json")).toBeUndefined();
    await writeFile(join(dir.path, "v1/missing.json"), "m".repeat(10));
    expect((await cache.get("v1/missing.json", 10)).body.toString()).toBe("m".repeat(10));
    for (const pooled of [false, true]) {
      const read = pooled ? cache.take("v1/b.json", 101) : cache.get("v1/b.json", 101);
      await expect(read).rejects.toThrow(/100 bytes where the build wrote 101/);
    }
    expect(cache.peek("v1/b.json")).toBeUndefined();
  });

  it("keeps a file from its second request on: one asked for once is read, answered and dropped", async () => {
    const cache = new FileCache(dir.path);
    expect((await cache.get("v1/a.json", 100))?.body.toString()).toBe("a".repeat(100));
    expect(cache.peek("v1/a.json"), "not kept after one request").toBeUndefined();
    await cache.get("v1/b.json", 100);
    await cache.get("v1/a.json", 100);
    expect(cache.peek("v1/a.json")?.body.toString(), "kept after its second").toBe("a".repeat(100));
    expect(cache.peek("v1/b.json")).toBeUndefined();
  });

  it("with no room for recently seen names, a file asked for again long after its first request is still not kept", async () => {
    const cache = new FileCache(dir.path, { recentBytes: 1 }); // no room for even one name
    await cache.get("v1/a.json", 100);
    await cache.get("v1/b.json", 100);
    await cache.get("v1/a.json", 100);
    expect(cache.peek("v1/a.json")).toBeUndefined();
  });

  it("stays within its byte budget, giving a recently used file a second chance over an unused one", async () => {
    // room for three entries, bodies and keys; every file kept on its first request
    const cache = new FileCache(dir.path, { maxBytes: 3 * (100 + 2 * "v1/a.json".length + 160), recentBytes: 0 });
    await cache.get("v1/a.json", 100);
    await cache.get("v1/b.json", 100);
    cache.peek("v1/a.json"); // a is used again; b is not
    await cache.get("v1/c.json", 100);
    await cache.get("v1/d.json", 100);
    expect(cache.peek("v1/a.json")).not.toBeUndefined();
    expect(cache.peek("v1/b.json")).toBeUndefined();
    expect(cache.peek("v1/d.json")).not.toBeUndefined();
  });

  it("out of descriptors, it retries and then fails as unavailable: never a miss", async () => {
    let failures = 0;
    const cache = new FileCache(dir.path, {
      retryDelays: [1, 1],
      readFile: (path) =>
        failures++ < 2 ? Promise.reject(Object.assign(new Error("EMFILE"), { code: "EMFILE" })) : readFile(path),
    });
    expect((await cache.get("v1/a.json", 100))?.body.toString()).toBe("a".repeat(100));
    failures = -100;
    await expect(cache.get("v1/b.json", 100)).rejects.toBeInstanceOf(FilesUnavailable);
    expect(cache.peek("v1/b.json")).toBeUndefined();
  });
});
