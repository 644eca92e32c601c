import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StorageFault } from "../../../../../scripts/api/runtime/build-index.ts";
import { BodyPool, SLAB_BYTES } from "../../../../../scripts/hosts/node/server/body-pool.ts";
import { FileCache } from "../../../../../scripts/hosts/node/server/file-cache.ts";
import { tempDir } from "../../../../helpers/fs/dirs.ts";

describe("BodyPool: buffers for bodies read once", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir();
    await writeFile(join(dir.path, "a.json"), "a".repeat(100));
    await writeFile(join(dir.path, "b.json"), "b".repeat(50));
    await writeFile(join(dir.path, "large.json"), "x".repeat(SLAB_BYTES + 1));
  });
  afterEach(() => dir.remove());

  it("reads a whole file into a pooled buffer, given back once however often release is called", () => {
    const pool = new BodyPool();
    const a = pool.read(join(dir.path, "a.json"))!;
    expect(a.body.toString()).toBe("a".repeat(100));
    expect(pool.size).toBe(0);
    a.release();
    a.release();
    expect(pool.size).toBe(1);
    const b = pool.read(join(dir.path, "b.json"))!;
    expect(b.body.toString()).toBe("b".repeat(50));
    expect(pool.size, "the buffer given back is reused").toBe(0);
  });

  it("leaves a file larger than its buffers to be read otherwise, and a missing one throws ENOENT", () => {
    const pool = new BodyPool();
    expect(pool.read(join(dir.path, "large.json"))).toBeNull();
    expect(() => pool.read(join(dir.path, "missing.json"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });

  it("FileCache.take: a file read for one response carries release; a kept one owns its bytes", async () => {
    const cache = new FileCache(dir.path);
    const first = await cache.take("a.json", 100);
    expect(first?.body.toString()).toBe("a".repeat(100));
    expect(first?.release, "not kept after one request: pooled").toBeTypeOf("function");
    first!.release!();
    const second = await cache.take("a.json", 100);
    expect(second?.release, "kept from its second request: its own copy").toBeUndefined();
    const other = await cache.take("b.json", 50); // reuses the buffer the first read gave back
    expect(other?.body.toString()).toBe("b".repeat(50));
    expect(cache.peek("a.json")?.body.toString()).toBe("a".repeat(100));
    const large = await cache.take("large.json", SLAB_BYTES + 1);
    expect(large?.body.byteLength).toBe(SLAB_BYTES + 1);
    await expect(cache.take("missing.json", 10)).rejects.toBeInstanceOf(StorageFault);
  });
});
