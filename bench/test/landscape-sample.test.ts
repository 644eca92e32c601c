// The landscape step's sample and its oracle (bench/hosts/landscape-sample.ts) over a runs build of a few bytes held in
// memory: the pages L1 says, every error kind, and a sample that is the same for the same seed.
import { describe, expect, it } from "vitest";
import { buildRouteTable } from "../../scripts/api/contract/build-route-table.ts";
import { generateCatalog } from "../../scripts/content/generate.ts";
import type { Site } from "../../scripts/model/derive.ts";
import {
  answerOracle,
  ERROR_KINDS,
  landscapeSample,
  type RunsBuildView,
  targetOfFile,
} from "../hosts/landscape-sample.ts";

const table = buildRouteTable(generateCatalog({ tools: 0, categories: 0, seed: 1 }).site as Site);

// all: three items; category/seo: one; category/none: none
const items = ['{"slug":"a"}', '{"slug":"bb"}', '{"slug":"ccc"}'];
const offsetsOf = (list: string[]) => {
  const o = [0];
  for (const item of list) o.push(o.at(-1)! + item.length + 1);
  return list.length === 0 ? new Uint32Array([0]) : new Uint32Array(o);
};
const runs: Record<string, string[]> = { all: items, "category/seo": [items[1]!], "category/none": [] };
const files: Record<string, string> = {
  "v1/software/a.json": '{"data":"a"}',
  "v1/categories.json": '{"data":[]}',
  "v1/search/a.json": '{"data":["a"]}',
  "v1/sync/pieces/00ff.json": "[1]",
  "errors/offset_out_of_range/all.json": '{"error":"beyond all"}',
  "errors/offset_out_of_range/category/seo.json": '{"error":"beyond seo"}',
  "errors/offset_out_of_range/category/none.json": '{"error":"beyond none"}',
};
for (const [id, e] of Object.entries(table.errors)) files[e.file] ??= `{"error":"${id}"}`;
for (const [filter, list] of Object.entries(runs)) files[`runs/${filter}.run`] = list.join(",");

const view: RunsBuildView = {
  table,
  files: Object.keys(files).filter((f) => !f.startsWith("runs/")),
  lists: {
    all: { category: null, total: 3 },
    "category/seo": { category: "seo", total: 1 },
    "category/none": { category: "none", total: 0 },
  },
};
const oracle = answerOracle(view, {
  read: (file) => {
    if (files[file] === undefined) throw new Error(`no ${file}`);
    return Buffer.from(files[file]);
  },
  offsets: (filter) => (runs[filter] ? offsetsOf(runs[filter]) : null),
});
const text = (method: string, target: string) => {
  const a = oracle(method, target);
  return [a.status, a.body.toString()];
};

describe("answerOracle", () => {
  it("answers a page as L1's envelope around its run's slice, offset = total empty, beyond it the list's 400", () => {
    expect(text("GET", "/v1/software?limit=2&offset=1")).toEqual([
      200,
      '{"data":[{"slug":"bb"},{"slug":"ccc"}],"meta":{"total":3,"limit":2,"offset":1,"category":null}}',
    ]);
    expect(text("GET", "/v1/software")).toEqual([
      200,
      `{"data":[${items.join(",")}],"meta":{"total":3,"limit":20,"offset":0,"category":null}}`,
    ]);
    expect(text("GET", "/v1/software?offset=3")[1]).toBe(
      '{"data":[],"meta":{"total":3,"limit":20,"offset":3,"category":null}}',
    );
    expect(text("GET", "/v1/software?category=seo&limit=5")[1]).toBe(
      '{"data":[{"slug":"bb"}],"meta":{"total":1,"limit":5,"offset":0,"category":"seo"}}',
    );
    expect(text("GET", "/v1/software?category=none")[1]).toBe(
      '{"data":[],"meta":{"total":0,"limit":20,"offset":0,"category":"none"}}',
    );
    expect(text("GET", "/v1/software?offset=4")).toEqual([400, '{"error":"beyond all"}']);
    expect(text("GET", "/v1/software?category=seo&offset=2")).toEqual([400, '{"error":"beyond seo"}']);
  });

  it("answers bodies with the build's files and errors with its error bodies", () => {
    expect(text("GET", "/v1/software/a")).toEqual([200, '{"data":"a"}']);
    expect(text("GET", "/v1/search?q=a")).toEqual([200, '{"data":["a"]}']);
    expect(text("GET", "/v1/software/zz")).toEqual([404, '{"error":"software_not_found"}']);
    expect(text("GET", "/v1/software?limit=0")).toEqual([400, '{"error":"invalid_limit"}']);
    expect(text("GET", "/v1/software?category=nope")).toEqual([404, '{"error":"category_not_found"}']);
    expect(text("POST", "/v1/categories")).toEqual([405, '{"error":"method_not_allowed"}']);
    expect(text("GET", "/v1/nope")).toEqual([404, '{"error":"not_found"}']);
  });
});

describe("landscapeSample", () => {
  const sample = landscapeSample(view, 7, 60);

  it("is the same for the same seed, and holds every error kind and every kind of body", () => {
    expect(landscapeSample(view, 7, 60)).toEqual(sample);
    expect(sample.length).toBeGreaterThanOrEqual(60);
    const kinds = new Set(sample.map((r) => r.kind));
    for (const kind of [...ERROR_KINDS, "page", "last page", "offset = total", "tool", "search", "piece", "categories"])
      expect(kinds).toContain(kind);
  });

  it("asks each error kind a way the oracle answers with that error", () => {
    for (const id of ERROR_KINDS) {
      const asked = sample.filter((r) => r.kind === id);
      const bodies = asked.map((r) => oracle(r.method, r.target).body.toString());
      const want = id === "offset_out_of_range" ? /beyond/ : new RegExp(id);
      expect(bodies.filter((b) => want.test(b)).length, id).toBe(asked.length);
    }
  });

  it("names the target of each served file", () => {
    expect(targetOfFile("/v1", "v1/software/a.json")?.target).toBe("/v1/software/a");
    expect(targetOfFile("/v1", "v1/search/ab.json")?.target).toBe("/v1/search?q=ab");
    expect(targetOfFile("/v1", "v1/search/_none.json")).toBeNull();
    expect(targetOfFile("/v1", "v1/sync/pieces/00ff.json")?.kind).toBe("piece");
    expect(targetOfFile("/v1", "errors/not_found.json")).toBeNull();
  });
});
