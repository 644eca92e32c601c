// The landscape step's flags and the TARGETS rows it gives (bench/options.ts, bench/judge/targets.ts).
import { describe, expect, it } from "vitest";
import { landscapeTargets } from "../judge/targets.ts";
import { parseBenchOptions, parseLandscapeSizes } from "../options.ts";
import type { LandscapeChange, LandscapeResult } from "../steps/landscape.ts";

describe("--landscape-sizes", () => {
  it("defaults to the issue's two catalogs, and reads TOOLS:CATEGORIES lists", () => {
    expect(parseBenchOptions(["--only", "landscape"]).landscapeSizes).toEqual([
      { tools: 15_384, categories: 49 },
      { tools: 103_528, categories: 300 },
    ]);
    expect(parseLandscapeSizes("2000:12")).toEqual([{ tools: 2000, categories: 12 }]);
    expect(() => parseLandscapeSizes("2000")).toThrow(/TOOLS:CATEGORIES/);
    expect(() => parseLandscapeSizes("2000:0")).toThrow(/≥ 1/);
  });
});

describe("landscapeTargets", () => {
  const change = (seconds: number): LandscapeChange => ({
    what: "",
    rebuildSeconds: seconds,
    rebuildReportedSeconds: seconds,
    changed: [],
    rebuildPeakRss: null,
    upload: { writes: 5, sentBytes: 200_000, seconds: 1, peakRss: null },
    mirror: { wireDown: 250_000 } as LandscapeChange["mirror"],
    devSeconds: 2,
  });
  const result = (n: number) =>
    ({
      n,
      categories: 49,
      seconds: { generate: 1, build: 10, upload: 1, serving: 1, total: 600 },
      build: { files: 1, diskBytes: 1e8, peakRss: 2 ** 28 },
      upload: { writes: 40, sentBytes: 3e7, seconds: 1, peakRss: 2 ** 28 },
      servingPeakRss: 2 ** 28,
      diskBytes: 1e9,
      hosts: [
        { name: "node server", asked: 2000, failed: 0 },
        { name: "nginx generated", asked: 2000, failed: 1 },
      ],
      mirror: { diskBytes: 2e8 },
      price: change(0.5),
      insert: change(4),
    }) as unknown as LandscapeResult;

  it("judges the landscape's rows at 15,384 and the whole way's at 103,528, failures at both", () => {
    const small = landscapeTargets(result(15_384));
    expect(small).toHaveLength(18);
    expect(small.find((t) => t.name.includes("inserted tool, rebuild"))?.pass).toBe(false);
    expect(small.find((t) => t.name.includes("nginx"))?.pass).toBe(false);
    const large = landscapeTargets(result(103_528));
    expect(large.map((t) => t.name)).toContain("landscape n=103528: generate → build → upload → serving");
    expect(large.find((t) => t.unit === "min")?.pass).toBe(true);
    expect(large).toHaveLength(7);
  });

  it("gives a size that did not run to the end one row, not judged as met", () => {
    const rows = landscapeTargets({ n: 103_528, categories: 300, failed: "catalog:generate exited 1: EMFILE" });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.pass).toBeNull();
  });
});
