// A rebuild reads the published build's fingerprint from the first bytes of its manifest, and whole only when the
// file does not start as writeManifest starts it.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MANIFEST_FILE, readFingerprint, readManifest, writeManifest } from "../../../scripts/io/manifest.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";

let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
afterEach(async () => dir?.remove());

describe("readFingerprint", () => {
  it("reads what writeManifest wrote, and the whole manifest still parses", async () => {
    dir = await tempDir();
    const files = new Map([["v1/categories.json", "a".repeat(64)]]);
    writeManifest(
      dir.path,
      "Fp_1-x",
      { hashes: files, keys: new Map([["v1/categories.json", "key 1"]]), sizes: new Map([["v1/categories.json", 3]]) },
      {},
      { files: 1, bytes: 3 },
    );
    expect(readFingerprint(dir.path)).toBe("Fp_1-x");
    const manifest = readManifest(dir.path);
    expect(manifest?.files).toEqual(files);
    expect(manifest?.sizes).toEqual(new Map([["v1/categories.json", 3]]));
    expect(manifest?.keys).toEqual(new Map([["v1/categories.json", "key 1"]]));
  });

  it("parses a manifest that starts otherwise, and gives nothing for none", async () => {
    dir = await tempDir();
    expect(readFingerprint(dir.path)).toBeUndefined();
    const manifest = { format: 4, fingerprint: "abc", files: [], lists: {}, tree: { files: 0, bytes: 0 } };
    await writeFile(join(dir.path, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    expect(readFingerprint(dir.path)).toBe("abc");
    await writeFile(join(dir.path, MANIFEST_FILE), '{"format":3,"fingerprint":"old"}');
    expect(readFingerprint(dir.path)).toBeUndefined();
  });
});
