// Validators are compiled once per change of schemas/ (or of ajv) and kept as standalone code: the cached module
// must judge exactly as freshly compiled ones do, errors and their details included.
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCHEMA_FILE_NAMES } from "../../../scripts/schemas/schema-files.ts";
import { loadValidators } from "../../../scripts/schemas/validators.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";

const badTool = {
  slug: "Not A Slug",
  name: "",
  categories: ["crm"],
  website: "not a url",
  rating: 4.55,
  pricingPlans: [{ name: "Pro", price: -1, billing: "weekly", features: "all" }],
  surprise: true,
};

describe("cached validators", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => void (dir = await tempDir()));
  afterAll(() => dir.remove());

  it("are written on first use and, loaded from the cache, give the same verdicts and errors", async () => {
    const compiled = loadValidators(dir.path);
    const files = await readdir(dir.path);
    expect(files).toHaveLength(SCHEMA_FILE_NAMES.length);
    for (const file of files) expect(file).toMatch(/^validators-[\w-]{16}-[\w-]+\.cjs$/);
    const cached = loadValidators(dir.path);
    expect(Object.keys(cached).sort()).toEqual([...SCHEMA_FILE_NAMES].sort());
    for (const file of SCHEMA_FILE_NAMES) {
      expect(cached[file]).not.toBe(compiled[file]);
      for (const value of [badTool, {}, { data: [] }, null]) {
        expect(cached[file](value), file).toBe(compiled[file](value));
        expect(cached[file].errors, file).toEqual(compiled[file].errors);
      }
    }
    expect(cached["content/tool.schema.json"](badTool)).toBe(false);
    expect(cached["content/tool.schema.json"].errors!.length).toBeGreaterThan(5);
  });
});
