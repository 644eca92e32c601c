import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { etagOf, FileCache } from "../../../scripts/server/file-cache.ts";
import { tempDir } from "../../helpers/dirs.ts";

describe("FileCache: dist/ files in memory, bounded", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir();
    await mkdir(join(dir.path, "v1"));
    for (const name of ["a", "b", "c", "d"]) await writeFile(join(dir.path, `v1/${name}.json`), name.repeat(100));
    await writeFile(join(dir.path, "v1/a.json.gz"), "gz");
  });
  afterEach(() => dir.remove());

  it("loads a file with a content-hash ETag and its precompressed siblings; remembers misses", async () => {
    const cache = new FileCache(dir.path);
    const a = await cache.get("v1/a.json");
    expect(a?.etag).toBe(etagOf(Buffer.from("a".repeat(100))));
    expect(a?.encoded.map((e) => e.name)).toEqual(["gzip"]);
    expect(cache.peek("v1/missing.json")).toBeUndefined();
    expect(await cache.get("v1/missing.json")).toBeNull();
    expect(cache.peek("v1/missing.json")).toBeNull();
  });

  it("stays within its byte budget, giving a recently used file a second chance over an unused one", async () => {
    const cache = new FileCache(dir.path, 300); // room for three 100-byte bodies (a's gzip sibling adds 2 bytes)
    await cache.get("v1/a.json");
    await cache.get("v1/b.json");
    cache.peek("v1/a.json"); // a is used again; b is not
    await cache.get("v1/c.json");
    await cache.get("v1/d.json");
    expect(cache.peek("v1/a.json")).not.toBeUndefined();
    expect(cache.peek("v1/b.json")).toBeUndefined();
    expect(cache.peek("v1/d.json")).not.toBeUndefined();
  });
});
