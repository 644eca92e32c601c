import { describe, expect, it } from "vitest";
import { hostLimitWarnings } from "../../../scripts/hosts/limits.ts";

describe("host limit warnings in the build summary", () => {
  it("a small tree passes every known limit", () => {
    expect(hostLimitWarnings({ files: 19_000, bytes: 100e6, maxFilesPerDir: 81 })).toEqual([]);
  });

  it("names the host and the limit a tree exceeds", () => {
    expect(hostLimitWarnings({ files: 22_324, bytes: 128e6, maxFilesPerDir: 81 })).toEqual([
      "Cloudflare Pages (Free): this build exceeds its limit of 20,000 files per site",
    ]);
  });

  it("the n = 1,000 tree exceeds the size and file limits of every page host listed", () => {
    const warnings = hostLimitWarnings({ files: 281_542, bytes: 4.28e9, maxFilesPerDir: 1_001 });
    expect(warnings.map((w) => w.split(":")[0])).toEqual([
      "Cloudflare Pages (Free)",
      "Cloudflare Pages (paid)",
      "GitLab Pages",
      "GitHub Pages",
    ]);
  });

  it("warns about Netlify's per-folder limit only when a list is that long", () => {
    expect(hostLimitWarnings({ files: 1, bytes: 1, maxFilesPerDir: 54_001 })).toEqual([
      "Netlify: this build exceeds its limit of 54,000 files per folder",
    ]);
  });
});
