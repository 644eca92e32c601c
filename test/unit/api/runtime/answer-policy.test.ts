// The answer policy alone, without a server: what each kind of decision is answered with. The conformance suite checks
// the same rules over HTTP on every host; this names the rule that broke.
import { describe, expect, it } from "vitest";
import { buildRouteTable } from "../../../../scripts/api/contract/build-route-table.ts";
import {
  answerHeaders,
  codedEtag,
  type FileFacts,
  ifNoneMatchHits,
  pickCoding,
  planAnswer,
  sendsBody,
} from "../../../../scripts/api/runtime/answer-policy.ts";
import type { Decision } from "../../../../scripts/api/runtime/resolve-request.ts";

const table = buildRouteTable({
  siteUrl: "https://site.example",
  apiBaseUrl: "https://api.example",
  basePath: "/v1",
  cacheMaxAge: 300,
  cacheStaleWhileRevalidate: 0,
});
const headers = answerHeaders(table);
const page: Decision = { kind: "file", file: "v1/software/pages/all/20/0.json", status: 200, success: true };
const plain: FileFacts = { etag: '"abc"', codings: [] };
const coded: FileFacts = { etag: '"abc"', codings: ["br", "gzip"] };
const names = (pairs: [string, string][]) => pairs.map(([name]) => name);

describe("planAnswer", () => {
  it("a preflight is 204, an error its route-table status", () => {
    expect(planAnswer({ kind: "preflight" }, null, {})).toEqual({ kind: "preflight", status: 204 });
    expect(planAnswer({ kind: "error", id: "method_not_allowed" }, null, {})).toEqual({
      kind: "error",
      id: "method_not_allowed",
      status: 405,
    });
    expect(planAnswer({ kind: "error", id: "invalid_limit" }, null, {})).toMatchObject({ status: 400 });
  });

  it("a file that vanished is not_found, never a 5xx", () => {
    expect(planAnswer(page, null, {})).toEqual({ kind: "error", id: "not_found", status: 404 });
  });

  it("If-None-Match naming the file is 304; a file with an error status never is", () => {
    expect(planAnswer(page, plain, { ifNoneMatch: 'W/"abc"' })).toEqual({
      kind: "file",
      status: 304,
      notModified: true,
      coding: undefined,
    });
    const outOfRange: Decision = {
      kind: "file",
      file: "errors/offset_out_of_range/all.json",
      status: 400,
      success: false,
    };
    expect(planAnswer(outOfRange, plain, { ifNoneMatch: "*" })).toEqual({
      kind: "file",
      status: 400,
      notModified: false,
    });
  });

  it("a client accepting brotli gets the br sibling; its ETag also answers 304", () => {
    expect(planAnswer(page, coded, { acceptEncoding: "gzip, br" })).toMatchObject({ status: 200, coding: "br" });
    expect(planAnswer(page, coded, { ifNoneMatch: codedEtag('"abc"', "br") })).toMatchObject({ status: 304 });
  });
});

describe("conditions and codings", () => {
  it("If-None-Match compares weakly over a list, * matches anything", () => {
    expect(ifNoneMatchHits('"x", W/"abc"', ['"abc"'])).toBe(true);
    expect(ifNoneMatchHits("*", ['"abc"'])).toBe(true);
    expect(ifNoneMatchHits('"abd"', ['"abc"'])).toBe(false);
    expect(ifNoneMatchHits(null, ['"abc"'])).toBe(false);
  });

  it("q=0 refuses a coding, x-gzip is gzip, the file's order is the preference", () => {
    expect(pickCoding("br;q=0, gzip", ["br", "gzip"])).toBe("gzip");
    expect(pickCoding("x-gzip", ["br", "gzip"])).toBe("gzip");
    expect(pickCoding("*", ["br", "gzip"])).toBe("br");
    expect(pickCoding("identity", ["br", "gzip"])).toBeUndefined();
  });

  it("HEAD, 204 and 304 send no body", () => {
    expect(sendsBody("GET", 200)).toBe(true);
    expect(sendsBody("HEAD", 200)).toBe(false);
    expect(sendsBody("GET", 304)).toBe(false);
    expect(sendsBody("OPTIONS", 204)).toBe(false);
  });
});

describe("answerHeaders", () => {
  it("405 carries Allow, 503 Retry-After, every error the common headers and its length", () => {
    const notAllowed = headers.error("method_not_allowed", 12);
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers).toContainEqual(["Allow", "GET, HEAD, OPTIONS"]);
    expect(notAllowed.headers).toContainEqual(["Content-Length", "12"]);
    expect(headers.error("service_unavailable", 1).headers).toContainEqual(["Retry-After", "1"]);
    expect(names(headers.error("not_found", 1).headers)).toEqual([
      "Content-Type",
      "Access-Control-Allow-Origin",
      "X-Content-Type-Options",
      "Content-Length",
    ]);
  });

  it("Cache-Control adds stale-while-revalidate when the site sets it, on 200 and 304 alike; errors carry none", () => {
    const withStale = answerHeaders(
      buildRouteTable({
        siteUrl: "https://site.example",
        apiBaseUrl: "https://api.example",
        basePath: "/v1",
        cacheMaxAge: 120,
        cacheStaleWhileRevalidate: 600,
      }),
    );
    const expected = ["Cache-Control", "public, max-age=120, stale-while-revalidate=600"];
    expect(withStale.success(plain, { notModified: false }, 10)).toContainEqual(expected);
    expect(withStale.success(plain, { notModified: true }, 0)).toContainEqual(expected);
    expect(names(withStale.error("not_found", 1).headers)).not.toContain("Cache-Control");
    // 0, the default, sends max-age alone.
    expect(table.headers.success).toEqual({ "Cache-Control": "public, max-age=300" });
  });

  it("the preflight echoes Access-Control-Request-Headers, or *", () => {
    expect(headers.preflight("x-trace, authorization")).toContainEqual([
      "Access-Control-Allow-Headers",
      "x-trace, authorization",
    ]);
    expect(headers.preflight(null)).toContainEqual(["Access-Control-Allow-Headers", "*"]);
  });

  it("a 304 has the validators but no type or length; a coded 200 its Content-Encoding, coded ETag and Vary", () => {
    const notModified = headers.success(coded, { notModified: true }, 0);
    expect(names(notModified)).not.toContain("Content-Type");
    expect(names(notModified)).not.toContain("Content-Length");
    expect(notModified).toContainEqual(["Cache-Control", "public, max-age=300"]);
    const br = headers.success(coded, { notModified: false, coding: "br" }, 40);
    expect(br).toEqual(
      expect.arrayContaining([
        ["ETag", '"abc-br"'],
        ["Content-Encoding", "br"],
        ["Vary", "Accept-Encoding"],
        ["Content-Length", "40"],
      ]),
    );
    expect(headers.success(plain, { notModified: false }, 3, "text/html; charset=utf-8")).toContainEqual([
      "Content-Type",
      "text/html; charset=utf-8",
    ]);
  });
});
