// Assertions every response kind shares: H1, H2 headers and H4 error bodies.
import { expect } from "vitest";
import type { Reply } from "./http.ts";
import type { RawReply } from "./raw-http.ts";
import { ERROR_CODES, type ErrorBody } from "./shapes.ts";

type AnyReply = Reply | RawReply;
const header = (r: AnyReply, name: string): string | null =>
  r.headers instanceof Headers ? r.headers.get(name) : ((r.headers as Record<string, string>)[name] ?? null);
/** a missing header reads as this, so that toMatch reports it instead of throwing */
const ABSENT = "(header absent)";
const bodyText = (r: AnyReply): string => ("text" in r ? r.text : r.body.toString("utf8"));
const label = (r: AnyReply) => ("target" in r ? r.target : "raw request");

/** H1 content type, H2 CORS and nosniff, no credentials. `contentType` other than JSON: a docs asset's. */
export function expectCommonHeaders(r: AnyReply, contentType = "application/json; charset=utf-8"): void {
  const where = `${label(r)} (${r.status})`;
  const type = header(r, "content-type");
  // a 304 describes no representation: Content-Type may be left out (RFC 9110 §15.4.5), but never be wrong
  if (!(r.status === 304 && type === null))
    expect(normaliseType(type ?? ABSENT), `${where}: H1 Content-Type`).toBe(normaliseType(contentType));
  expect(header(r, "access-control-allow-origin"), `${where}: H2 CORS`).toBe("*");
  expect(header(r, "x-content-type-options"), `${where}: H2 nosniff`).toBe("nosniff");
  expect(header(r, "access-control-allow-credentials"), `${where}: H2 no credentials`).toBeNull();
}

const normaliseType = (t: string) => t.toLowerCase().replace(/;\s*/g, "; ");

/** keys of an object exactly, in order (H5) */
export function expectKeys(value: unknown, keys: string[], where: string): void {
  expect(value !== null && typeof value === "object" && !Array.isArray(value), `${where} is an object`).toBe(true);
  expect(Object.keys(value as object), `${where} fields (H5)`).toEqual(keys);
}

/** H1 + H2 + H4: the status, an error body of the right shape, and the code. Returns the body. */
export function expectError(r: AnyReply, status: number, code: string): ErrorBody {
  const where = `${label(r)}`;
  expect({ status: r.status, body: bodyText(r).slice(0, 300) }, `${where}: status`).toMatchObject({ status });
  expectCommonHeaders(r);
  const body = parseJson(bodyText(r), where) as ErrorBody;
  expect(Object.keys(body), `${where}: H4 envelope`).toEqual(["error"]);
  const keys = Object.keys(body.error);
  expect(keys, `${where}: H4 error fields`).toEqual(["code", "message", "hint"].slice(0, keys.length));
  expect(keys.length, `${where}: H4 code and message are required`).toBeGreaterThanOrEqual(2);
  expect(typeof body.error.message, `${where}: message`).toBe("string");
  if (body.error.hint !== undefined) expect(typeof body.error.hint, `${where}: hint`).toBe("string");
  expect(ERROR_CODES, `${where}: H4 known code`).toContain(body.error.code);
  expect(body.error.code, `${where}: code`).toBe(code);
  return body;
}

/** 200 JSON with H1–H3 headers; returns the parsed body */
export function expectOk<T>(r: Reply): T {
  expect({ status: r.status, body: r.text.slice(0, 300) }, `${r.target}: status`).toMatchObject({ status: 200 });
  expectCommonHeaders(r);
  expect(r.headers.get("etag") ?? ABSENT, `${r.target}: H3 ETag`).toMatch(/^(W\/)?"[^"]*"$/);
  expect(r.headers.get("cache-control") ?? ABSENT, `${r.target}: H3 Cache-Control`).toMatch(/\bpublic\b/);
  return r.json() as T;
}

/** JSON.parse with an assertion message that says which response was not JSON (H1) */
export function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    expect.fail(`${where}: H1 the body is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
}
