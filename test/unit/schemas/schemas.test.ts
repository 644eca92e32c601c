import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateJsonSchemas } from "../../../scripts/write-schemas.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";

describe("schemas/ is generated from the zod source", () => {
  for (const [path, text] of Object.entries(generateJsonSchemas())) {
    it(`schemas/${path} equals what the zod source generates (run \`npm run schemas\` after changing a zod source)`, async () => {
      expect(await readFile(join(repoRoot, "schemas", path), "utf8")).toBe(text);
    });
  }

  it("every content file points its $schema at the matching generated schema", async () => {
    const site = JSON.parse(await readFile(join(repoRoot, "content/site.json"), "utf8"));
    expect(site.$schema).toBe("../schemas/content/site.schema.json");
    const tool = JSON.parse(await readFile(join(repoRoot, "content/tools/mailwave.json"), "utf8"));
    expect(tool.$schema).toBe("../../schemas/content/tool.schema.json");
    const category = JSON.parse(await readFile(join(repoRoot, "content/categories/crm.json"), "utf8"));
    expect(category.$schema).toBe("../../schemas/content/category.schema.json");
  });
});
