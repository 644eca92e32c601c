// Seeded property-based fuzz: random query strings and paths, each answer checked against the rules' oracle.
import fc from "fast-check";
import { expect } from "vitest";
import { pathArbitrary, queryArbitrary } from "../helpers/conformance/arbitraries.ts";
import { suiteContext } from "../helpers/conformance/context.ts";
import { expectCommonHeaders, expectError } from "../helpers/conformance/expect-response.ts";
import { forEachHost } from "../helpers/conformance/for-each-host.ts";
import type { Client } from "../helpers/conformance/http.ts";
import { predict } from "../helpers/conformance/oracle.ts";
import type { BestList, CategoryList, Detail, SoftwareList } from "../helpers/conformance/shapes.ts";

const { catalog } = suiteContext();
const listedCount = catalog.categories.filter((c) => c.members.length >= 2).length;
const runs = { seed: 20260101, numRuns: 300 };

/** requests target and checks the answer against the oracle's prediction for what was actually sent */
async function checkAgainstOracle(client: Client, target: string) {
  const sent = new URL(client.origin + target);
  const expected = predict(sent.pathname, sent.search.slice(1), catalog);
  const reply = await client.get(target);
  const where = `GET ${sent.pathname}${sent.search}`;
  if (expected.kind === "error") {
    expectError(reply, expected.status, expected.code);
    return;
  }
  expect({ status: reply.status, body: reply.text.slice(0, 200) }, where).toMatchObject({ status: 200 });
  if (expected.kind === "asset") {
    expectCommonHeaders(reply, expected.contentType);
    return;
  }
  expectCommonHeaders(reply);
  const body = reply.json();
  if (expected.kind === "list") {
    const list = body as SoftwareList;
    expect(list.meta, `${where}: meta`).toEqual(expected.meta);
    expect(
      list.data.map((t) => t.slug),
      `${where}: data`,
    ).toEqual(expected.slugs);
  } else if (expected.kind === "tool") expect((body as { data: Detail }).data.slug, where).toBe(expected.slug);
  else if (expected.kind === "best") expect((body as BestList).meta.category, where).toBe(expected.category);
  else if (expected.kind === "categories") expect((body as CategoryList).meta.total, where).toBe(listedCount);
  else if (expected.kind === "search") {
    expect((body as { meta: unknown }).meta, `${where}: meta`).toEqual({ total: expected.total, limit: 20 });
    expect(
      (body as SoftwareList).data.map((t) => t.slug),
      `${where}: data`,
    ).toEqual(expected.slugs);
  } else if (expected.kind === "export")
    expect(Object.keys((body as { data: object }).data), where).toEqual(["software", "categories"]);
  else if (expected.kind === "sync") expect(Object.keys(body as object), where).toEqual(["data", "meta"]);
  else if (expected.kind === "piece") expect(Array.isArray(body), where).toBe(true);
  else if (expected.kind === "openapi") expect((body as { openapi: string }).openapi, where).toBe("3.1.0");
}

forEachHost(({ test, client }) => {
  test("Q1–Q9 fuzz: random /software query strings answer as the rules predict", async () => {
    await fc.assert(
      fc.asyncProperty(queryArbitrary(catalog), (query) =>
        checkAgainstOracle(client(), `${catalog.basePath}/software?${query}`),
      ),
      runs,
    );
  });

  test("P1–P3 P7 fuzz: random paths answer as the rules predict", async () => {
    await fc.assert(
      fc.asyncProperty(
        pathArbitrary(catalog, { separators: false }),
        fc.option(queryArbitrary(catalog)),
        (path, query) => checkAgainstOracle(client(), query === null ? path : `${path}?${query}`),
      ),
      runs,
    );
  });

  test("P3 fuzz: encoded separators, backslashes, NUL and CRLF inside segments never split or escape them", async () => {
    await fc.assert(
      fc.asyncProperty(pathArbitrary(catalog, { separators: true }), (path) => checkAgainstOracle(client(), path)),
      runs,
    );
  });
});
