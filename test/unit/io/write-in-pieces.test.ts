// A body written piece by piece through one small buffer: the same bytes, hash and size as the body written whole,
// and no file left behind when making or writing it fails.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeInPieces } from "../../../scripts/io/write-in-pieces.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";

describe("writeInPieces", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.remove());

  it("writes the pieces' UTF-8 and returns its SHA-256 and size, pieces larger than the buffer included", () => {
    // Two-byte, three-byte and four-byte (a surrogate pair) characters, and a piece of ~300 KB.
    const pieces = ['{"a":"café – ', "日本語 😀", `${"x".repeat(100_000)}…${"é".repeat(100_000)}`, '"}'];
    const whole = Buffer.from(pieces.join(""));
    const path = join(dir.path, "body.json");
    const written = writeInPieces(path, pieces);
    expect(readFileSync(path).equals(whole)).toBe(true);
    expect(written).toEqual({ sha256: createHash("sha256").update(whole).digest("hex"), size: whole.length });
  });

  it("refuses a file that is there, naming it, and leaves it as it was", () => {
    const path = join(dir.path, "there.json");
    writeFileSync(path, "old");
    expect(() => writeInPieces(path, ["new"])).toThrow(expect.objectContaining({ code: "EEXIST", path }));
    expect(readFileSync(path, "utf8")).toBe("old");
  });

  it("leaves no file when making a piece fails half-way", () => {
    const path = join(dir.path, "half.json");
    function* failing() {
      yield "{";
      throw new Error("render failed");
    }
    expect(() => writeInPieces(path, failing())).toThrow("render failed");
    expect(existsSync(path)).toBe(false);
  });
});
