// Text a user of the API reads says every rule in words: the ids of the decisions (P1, Q8, H3, D5…) belong in code,
// tests and developer docs only. Checked on the built output: openapi.json, the docs page and every error body.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_STATUS, layout } from "../../../scripts/api/runtime/route-table.ts";
import { DOCS_FILES } from "../../../scripts/render/docs-page.ts";
import { buildOpenapiSite, type OpenapiSite } from "../../helpers/openapi/openapi-site.ts";

/** A rule id of the decisions: one of their letters and a number, as a word ("(Q8)", "H1, H2", "D5"). */
const RULE_ID = /\b[PQODHCBM]\d+\b/;

/** Every string of a JSON value with its JSON pointer, skipping the given keys (catalog data, not our prose). */
function* strings(value: unknown, skip: Set<string>, at = ""): Generator<[string, string]> {
  if (typeof value === "string") yield [at, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, skip, `${at}/${i}`);
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) if (!skip.has(k)) yield* strings(v, skip, `${at}/${k}`);
}

const withRuleIds = (found: Iterable<[string, string]>) =>
  [...found].filter(([, text]) => RULE_ID.test(text)).map(([at, text]) => `${at}: ${text}`);

describe("no rule ids in what a user of the API reads", () => {
  let site: OpenapiSite;
  beforeAll(async () => {
    site = await buildOpenapiSite();
  });
  afterAll(() => site?.remove());

  it("the pattern catches the ids as they were once written", () => {
    for (const text of [
      "in name order (O1)",
      "(Q2, Q3, Q6)",
      "the highest-rated tool, D5",
      "(H1, H2)",
      "percent-decoded (P3: no folding)",
    ])
      expect(withRuleIds([["", text]]), text).toHaveLength(1);
    for (const text of ["HTTP/2 and h2c", "page size 1 to 100", "OpenAPI 3.1", "MCP", "`^(100|[1-9][0-9]?)$`"])
      expect(withRuleIds([["", text]]), text).toEqual([]);
  });

  it("openapi.json: no description, summary, title or other text of ours names a rule id (examples are catalog data)", async () => {
    const doc: unknown = JSON.parse(await readFile(site.openapiPath, "utf8"));
    const found = [...strings(doc, new Set(["examples", "example"]))];
    expect(found.length).toBeGreaterThan(50);
    expect(withRuleIds(found)).toEqual([]);
  });

  it("the docs page HTML names no rule id", async () => {
    const html = await readFile(join(site.dist, DOCS_FILES.page.file), "utf8");
    expect(html).toContain("Try it");
    expect(html.split("\n").filter((line) => RULE_ID.test(line))).toEqual([]);
  });

  it("every error body in dist/ (fixed errors and each list's offset_out_of_range): message and hint in words", async () => {
    const files = await fg("**/*.json", {
      cwd: site.dist,
      ignore: [layout(site.table.basePath).openapi.replace(/^\//, "")],
    });
    const bodies: [string, unknown][] = [];
    for (const file of files) {
      const body: unknown = JSON.parse(await readFile(join(site.dist, file), "utf8"));
      if (body !== null && typeof body === "object" && "error" in body) bodies.push([file, body]);
    }
    const codes = new Set(bodies.map(([, b]) => (b as { error: { code: string } }).error.code));
    // every fixed error id's code, and offset_out_of_range, is among the bodies checked
    for (const id of Object.keys(ERROR_STATUS)) if (id !== "category_repeated") expect(codes, id).toContain(id);
    expect(codes).toContain("offset_out_of_range");
    expect(
      withRuleIds(
        bodies.flatMap(([file, body]) =>
          [...strings(body, new Set())].map(([at, text]) => [`${file}${at}`, text] as [string, string]),
        ),
      ),
    ).toEqual([]);
  });
});
