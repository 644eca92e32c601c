// The every-page checks' pure parts (which pages a page tree holds, what counts as the same page) and the judgement of
// lists as runs (bench/hosts/every-page.ts, bench/judge/targets.ts).
import { describe, expect, it } from "vitest";
import { etagOf } from "../../scripts/api/etag-node.ts";
import { MAX_LIMIT } from "../../scripts/api/runtime/route-table.ts";
import { pageMismatch, pageTargets } from "../hosts/every-page.ts";
import { runsPagesTargets } from "../judge/targets.ts";
import type { RunsPagesResult } from "../steps/runs-pages.ts";

describe("pageTargets: every page file a pages build holds", () => {
  const lists = {
    all: { category: null, lengths: [10, 12, 9] },
    "category/seo": { category: "seo", lengths: [12] },
    "category/empty": { category: "empty", lengths: [] },
  };
  const targets = pageTargets(lists, "/v1");

  it("each list, each limit 1–100, each offset 0–total (the empty page past the end included)", () => {
    expect(targets).toHaveLength(MAX_LIMIT * (4 + 2 + 1));
    expect(new Set(targets.map((t) => t.file)).size).toBe(targets.length);
    expect(targets[0]).toEqual({ file: "v1/software/pages/all/1/0.json", target: "/v1/software?limit=1&offset=0" });
    expect(targets).toContainEqual({
      file: "v1/software/pages/all/100/3.json",
      target: "/v1/software?limit=100&offset=3",
    });
    expect(targets).toContainEqual({
      file: "v1/software/pages/category/seo/7/1.json",
      target: "/v1/software?limit=7&offset=1&category=seo",
    });
    expect(targets.at(-1)).toEqual({
      file: "v1/software/pages/category/empty/100/0.json",
      target: "/v1/software?limit=100&offset=0&category=empty",
    });
  });

  it("no page past the empty one", () => {
    expect(targets.some((t) => t.file === "v1/software/pages/all/1/4.json")).toBe(false);
  });
});

describe("pageMismatch: the same page is status 200, the file's bytes and the ETag of those bytes", () => {
  const file = Buffer.from('{"data":[],"meta":{"total":0,"limit":20,"offset":0,"category":null}}');
  const answer = { status: 200, etag: etagOf(file), body: Buffer.from(file) };

  it("the same page", () => {
    expect(pageMismatch("/t", answer, file)).toBeNull();
  });

  it("says which of status, ETag and bytes differ, and where the bytes part", () => {
    expect(pageMismatch("/t", { ...answer, status: 503 }, file)).toBe("/t: status 503, not 200");
    expect(pageMismatch("/t", { ...answer, etag: null }, file)).toBe(`/t: ETag none, not ${etagOf(file)}`);
    const other = Buffer.from(file.toString().replace('"total":0', '"total":1'));
    const why = pageMismatch("/t", { ...answer, body: other }, file)!;
    expect(why).toContain(`${file.length} bytes, not ${file.length}, first differing at byte 27`);
    expect(why).toContain('"1,\\"limit');
  });
});

describe("runsPagesTargets", () => {
  const load = (rps: number) => ({
    requestsPerSecond: rps,
    rounds: [rps],
    latencyP50Ms: 0,
    latencyP99Ms: 1,
    errors: 0,
    non2xx: 0,
    total: rps * 5,
    bytesPerSecond: 0,
    statusCodes: {},
  });
  const result = (ratio: number, mismatches: string[]): RunsPagesResult => ({
    n: 1000,
    hot: {
      paths: ["/v1/software?limit=20&offset=40"],
      connections: 20,
      durationSeconds: 5,
      acceptEncoding: null,
      pages: load(10_000),
      runs: load(10_000 * ratio),
      ratio,
    },
    every: [
      { name: "node server", layout: "runs", skipped: null, pages: 10, mismatches, seconds: 1 },
      { name: "nginx generated", layout: "runs", skipped: "nginx is not installed" },
      { name: "node server", layout: "pages", skipped: null, pages: 10, mismatches: [], seconds: 1 },
    ],
    seconds: 2,
  });

  it("the hot ratio passes at 0.8× and more; a host's differing pages pass at 0; a skipped host is n/a", () => {
    const [hot, node, nginx, ...rest] = runsPagesTargets(result(0.8, []));
    expect(rest, "the page tree's own server is the pace, not judged").toEqual([]);
    expect(hot).toMatchObject({ value: 0.8, limit: 0.8, comparison: "≥", pass: true });
    expect(node).toMatchObject({ value: 0, pass: true });
    expect(node!.name).toContain("node server");
    expect(nginx).toMatchObject({ value: null, pass: null });
  });

  it("misses below 0.8× and at the first differing page", () => {
    const [hot, node] = runsPagesTargets(result(0.79, ["/v1/software?limit=1&offset=0: status 503, not 200"]));
    expect(hot!.pass).toBe(false);
    expect(node).toMatchObject({ value: 1, pass: false });
  });
});
