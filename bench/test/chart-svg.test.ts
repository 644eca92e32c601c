// The growth chart from a small results object: well-formed SVG, one series per measure, one bar per host.

import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "../../test/helpers/fs/dirs.ts";
import { launchArgs } from "../../test/helpers/process/launch.ts";
import { chartInput, formatBytes, formatCount, formatSeconds, growthChartSvg } from "../report/chart-svg.ts";
import type { ResultsFile } from "../report/results-file.ts";

const build = (n: number, files: number, bytes: number, seconds: number, tarSeconds: number | null) => ({
  n,
  skipped: null,
  files,
  bytes,
  seconds,
  reportedSeconds: seconds,
  peakRssBytes: 1e8,
  written: files,
  tarSeconds,
  ratio: tarSeconds && seconds / tarSeconds,
});
const host = (
  name: string,
  kind: "router" | "static" | "ceiling",
  requestsPerSecond: number,
  extra: { skipped?: string; wrongStatuses?: string[] } = {},
) => ({
  name,
  kind,
  skipped: extra.skipped ?? null,
  wrongStatuses: extra.wrongStatuses ?? [],
  rounds: [requestsPerSecond],
  requestsPerSecond,
});

const results = {
  machine: {
    cpus: 2,
    cpuModel: "Test CPU",
    memoryBytes: 1,
    platform: "linux",
    release: "x",
    node: "v20.0.0",
    nginx: null,
  },
  build: {
    generatedAt: "2026-01-02T03:04:05.000Z",
    buildArgs: [],
    results: [
      build(500, 140_000, 1.8e9, 13.6, 14.1),
      build(100, 28_700, 194e6, 3.0, 3.2),
      { ...build(5000, 0, 0, 0, null), skipped: "disk too small", files: null, bytes: null, seconds: null },
    ],
  },
  serve: {
    generatedAt: "2026-01-02T03:04:05.000Z",
    buildArgs: [],
    results: {
      n: 500,
      skipped: null,
      connections: 20,
      durationSeconds: 5,
      rounds: 1,
      acceptEncoding: null,
      meanBodyBytes: 1,
      ceilingBodyBytes: 1,
      requests: [],
      hosts: [
        host("npx serve", "router", 2185, { wrongStatuses: ["a", "b"] }),
        host("node server", "router", 36216),
        host("nginx plain", "static", 0, { skipped: "nginx is not installed" }),
      ],
    },
  },
} as unknown as ResultsFile;

type Node = Record<string, unknown>;
/** Every element named `tag` anywhere under a parsed node (fast-xml-parser keeps repeated elements as arrays). */
function findAll(node: unknown, tag: string): Node[] {
  if (Array.isArray(node)) return node.flatMap((n) => findAll(n, tag));
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node as Node).flatMap(
    ([k, v]) => (k === tag ? (Array.isArray(v) ? v : [v]) : []).concat(findAll(v, tag)) as Node[],
  );
}

describe("growth chart (docs/develop/growth.svg)", () => {
  const svg = growthChartSvg(chartInput(results));
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(svg) as Node;
  const groups = findAll(doc, "g");
  const series = (id: string) => groups.find((g) => g["@data-series"] === id);

  it("is well-formed SVG with a size, a title and no script or outside reference", () => {
    expect(XMLValidator.validate(svg)).toBe(true);
    const root = doc.svg as Node;
    expect(root["@xmlns"]).toBe("http://www.w3.org/2000/svg");
    expect(Number(root["@width"])).toBeGreaterThan(0);
    expect(root["@viewBox"]).toMatch(/^0 0 \d+ [\d.]+$/);
    expect(svg).toContain('<title id="chart-title">');
    expect(svg).not.toMatch(/<script|href=|url\(/);
  });

  it("draws files, bytes, build seconds and the tar floor for the measured sizes only, smallest first", () => {
    for (const [id, labels] of [
      ["files", ["28.7k", "140k"]],
      ["bytes", ["194 MB", "1.8 GB"]],
      ["build-seconds", ["3 s", "14 s"]],
    ] as const) {
      const g = series(id);
      expect(g, id).toBeDefined();
      expect(findAll(g, "circle"), id).toHaveLength(2); // the skipped n = 5,000 is not drawn
      expect(findAll(g, "title").map(String), id).toEqual([`100 tools: ${labels[0]}`, `500 tools: ${labels[1]}`]);
    }
    // the reference line: both points drawn, only its end labelled
    expect(findAll(series("tar-seconds"), "circle")).toHaveLength(2);
    expect(findAll(series("tar-seconds"), "text").map((t) => t["#text"])).toEqual(["14 s"]);
  });

  it("has one bar per host that ran, fastest first; a skipped host says why, a partial host says so", () => {
    const hosts = groups.filter((g) => g["@data-host"]).map((g) => g["@data-host"]);
    expect(hosts).toEqual(["node server", "npx serve", "nginx plain"]);
    const byHost = (name: string) => groups.find((g) => g["@data-host"] === name)!;
    expect(findAll(byHost("node server"), "rect")).toHaveLength(1);
    expect(JSON.stringify(byHost("node server"))).toContain("36,216 req/s");
    expect(JSON.stringify(byHost("npx serve"))).toContain("partial: 2 kinds of request answered wrongly");
    expect(findAll(byHost("nginx plain"), "rect")).toHaveLength(0);
    expect(JSON.stringify(byHost("nginx plain"))).toContain("skipped: nginx is not installed");
  });

  it("same results, same bytes; the machine and date come from the file", () => {
    expect(growthChartSvg(chartInput(results))).toBe(svg);
    expect(svg).toContain("2 × Test CPU, Node v20.0.0 · measured 2026-01-02");
  });

  it("sizes spanning more than 20× switch every panel to log scale", () => {
    const wide = structuredClone(results);
    wide.build!.results[2] = build(5000, 1.4e6, 30e9, 140, 200);
    const text = growthChartSvg(chartInput(wide));
    expect(XMLValidator.validate(text)).toBe(true);
    expect(text.match(/catalog size \(tools, log scale\)/g)).toHaveLength(3);
    expect(svg).not.toContain("log scale");
  });

  it("formats numbers the way a reader says them", () => {
    expect([formatCount(950), formatCount(28_744), formatCount(281_544), formatCount(1_400_000)]).toEqual([
      "950",
      "28.7k",
      "282k",
      "1.4M",
    ]);
    expect([formatBytes(194_127_537), formatBytes(4_280_028_875)]).toEqual(["194 MB", "4.3 GB"]);
    expect([formatSeconds(3.01), formatSeconds(23.9)]).toEqual(["3 s", "24 s"]);
  });

  it("npm run bench:chart writes the chart of a results file; a missing file is one line, exit 1", async () => {
    const dir = await tempDir("msapi-chart-");
    try {
      const resultsPath = join(dir.path, "results.json");
      await import("node:fs/promises").then((fs) => fs.writeFile(resultsPath, JSON.stringify(results)));
      const out = join(dir.path, "growth.svg");
      const run = (args: string[]) =>
        spawnSync(process.execPath, launchArgs("bench/chart.ts", ...args), {
          cwd: repoRoot,
          encoding: "utf8",
          timeout: 30_000,
        });
      const ok = run(["--results", resultsPath, "--out", out]);
      expect(ok.status, ok.stderr).toBe(0);
      expect(await readFile(out, "utf8")).toBe(svg);
      const missing = run(["--results", join(dir.path, "none.json"), "--out", out]);
      expect(missing.status).toBe(1);
      expect(missing.stderr.trim().split("\n")).toHaveLength(1);
      expect(missing.stderr).toContain("not found: run npm run bench first");
    } finally {
      await dir.remove();
    }
  });
});
