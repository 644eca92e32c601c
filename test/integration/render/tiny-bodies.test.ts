// The built bodies of a tiny catalog, pinned: any change to a body shows up here as a diff to review.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { describe, expect, it } from "vitest";
import { builtSite } from "../../helpers/build/built-site.ts";

describe("tiny fixture catalog", () => {
  const site = builtSite();

  it("builds these bodies (every non-page body, and a few pages)", async () => {
    const dist = site.dist;
    const files = (
      await fg(["v1/**/*.json", "errors/**/*.json"], { cwd: dist, ignore: ["v1/software/pages/**", "v1/openapi.json"] })
    ).sort();
    const pages = ["all/20/0", "all/2/1", "all/1/4", "category/email/2/2", "category/podcasts/20/0"].map(
      (p) => `v1/software/pages/${p}.json`,
    );
    const bodies: Record<string, string> = {};
    // Raw text, not parsed: the exact bytes and the contract's field order (H5) are what is pinned.
    for (const f of [...files, ...pages]) bodies[f] = await readFile(join(dist, f), "utf8");
    expect(bodies).toMatchSnapshot();
  });

  it("writes a page for every limit 1–100 and every offset 0..total of every filter", async () => {
    const pages = await fg("v1/software/pages/**/*.json", { cwd: site.dist });
    // tiny: 4 tools; categories email 3, crm 2, seo 1, podcasts 0 → (4+1 + 3+1 + 2+1 + 1+1 + 0+1) offsets × 100 limits
    expect(pages.length).toBe((5 + 4 + 3 + 2 + 1) * 100);
  });

  it("H5 never publishes editorial-only fields", async () => {
    const files = await fg("**/*.json", { cwd: site.dist });
    for (const f of files) {
      const text = await readFile(join(site.dist, f), "utf8");
      expect(text, f).not.toMatch(/internalNotes|editorialNotes|never published|never in output/);
    }
  });
});
