// requireWithCodeCache loads a CommonJS file with V8's code cache kept beside it, and survives a cache that does not fit.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { requireWithCodeCache, saveCodeCaches } from "../../../scripts/cli/code-cache.ts";
import { tempDir } from "../../helpers/dirs.ts";

describe("requireWithCodeCache", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let file: string;
  beforeEach(async () => {
    dir = await tempDir("msapi-code-cache-");
    file = join(dir.path, "module.cjs");
    await writeFile(
      file,
      `const { join } = require("node:path");\nexports.twice = (n) => n * 2;\nexports.joined = join("a", "b");\nexports.self = __filename;\n`,
    );
  });
  afterEach(() => dir.remove());

  it("returns the module's exports, and writes its code cache beside it, which the next load uses as is", async () => {
    const first = requireWithCodeCache(file) as { twice: (n: number) => number; joined: string; self: string };
    expect([first.twice(21), first.joined, first.self]).toEqual([42, "a/b", file]);
    saveCodeCaches();
    const cache = await readFile(`${file}.v8-code-cache`);
    expect(cache.byteLength).toBeGreaterThan(0);
    expect((requireWithCodeCache(file) as { twice: (n: number) => number }).twice(2)).toBe(4);
    saveCodeCaches();
    expect(await readFile(`${file}.v8-code-cache`)).toEqual(cache);
  });

  it("loads a module whose cache is garbage (V8 refuses it), and writes a good one", async () => {
    await writeFile(`${file}.v8-code-cache`, "not a code cache");
    expect((requireWithCodeCache(file) as { twice: (n: number) => number }).twice(5)).toBe(10);
    saveCodeCaches();
    expect((await readFile(`${file}.v8-code-cache`, "utf8")) === "not a code cache").toBe(false);
  });
});
