// The one reading of ajv's errors: grouped by where they are, the noise dropped (anyOf branches, a nullable's failed
// null branch, the 51-value rating enum beside a range error, a pattern beside its format), one line per problem.
// Content authors read it with the value they wrote (C4: values quoted from content files only); readers of built
// output get ajv's own wording, without values.
import type { ErrorObject } from "ajv";
import { RATING_VALUES } from "./rating-values.ts";
import { SLUG_PATTERN } from "./slug-pattern.ts";

export interface FieldProblem {
  /** the instance path's segments, unescaped: ["pricingPlans", "1", "price"] */
  segments: string[];
  message: string;
}

/** "content": a content file's author (values quoted, "expected …" wording); "output": a built body's checker. */
export type Audience = "content" | "output";

const isRatingSteps = (values: unknown) =>
  Array.isArray(values) && values.length === RATING_VALUES.length && values.every((v, i) => v === RATING_VALUES[i]);

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

const segmentsOf = (instancePath: string) =>
  instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));

export function describeAjvErrors(errors: readonly ErrorObject[], audience: Audience): FieldProblem[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    if (e.keyword === "anyOf") continue; // its branches say what was wrong
    const list = byPath.get(e.instancePath) ?? [];
    list.push(e);
    byPath.set(e.instancePath, list);
  }
  const out: FieldProblem[] = [];
  for (const [instancePath, list] of byPath) {
    const segments = segmentsOf(instancePath);
    const typeErrors = list.filter((e) => e.keyword === "type");
    // A format check (date, uri) says more than the regex zod adds beside it.
    const hasFormat = list.some((e) => e.keyword === "format");
    // Out of range says more than "not one of 51 ratings"; the enum then only repeats it, as it does beside a type error.
    const hasRange = list.some((e) => e.keyword === "maximum" || e.keyword === "minimum");
    const ratingNoise = (e: ErrorObject) =>
      e.keyword === "enum" && isRatingSteps(e.params.allowedValues) && (hasRange || typeof e.data !== "number");
    const others = list.filter(
      (e) => e.keyword !== "type" && !(hasFormat && e.keyword === "pattern") && !ratingNoise(e),
    );
    // A nullable field fails both its branches; when the value has a right type, only the other errors matter.
    if (others.length === 0 && typeErrors.length > 0) {
      const expected = [...new Set(typeErrors.map((e) => String(e.params.type)))].join(" or ");
      const message =
        audience === "content" ? `expected ${expected}, got ${typeOf(typeErrors[0]!.data)}` : `must be ${expected}`;
      out.push({ segments, message });
      continue;
    }
    for (const e of others) out.push(phrase(e, segments, audience));
  }
  return out;
}

function phrase(e: ErrorObject, segments: string[], audience: Audience): FieldProblem {
  const at = (message: string, field?: unknown) => ({
    segments: field === undefined ? segments : [...segments, String(field)],
    message,
  });
  const content = audience === "content";
  switch (e.keyword) {
    case "required":
      return content ? at("required field is missing", e.params.missingProperty) : at(e.message ?? "required");
    case "additionalProperties":
      return content
        ? at("unknown field (not allowed here)", e.params.additionalProperty)
        : at(`must NOT have additional property "${e.params.additionalProperty}"`);
    case "enum": {
      if (isRatingSteps(e.params.allowedValues)) {
        const range = "a number from 0 to 5 with at most one decimal";
        return at(content ? `expected ${range} (like 4.5), got ${quote(e.data)}` : `must be ${range}`);
      }
      const allowed = (e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ");
      return at(content ? `expected one of ${allowed}, got ${quote(e.data)}` : `must be one of ${allowed}`);
    }
  }
  if (!content) return at(e.message ?? e.keyword);
  switch (e.keyword) {
    case "maxLength":
      // The value is never quoted: it is long by definition (C3), and the count says enough.
      return at(`longer than the limit of ${e.params.limit} characters (has ${countChars(String(e.data))})`);
    case "maxItems":
      return at(`more than the limit of ${e.params.limit} entries (has ${(e.data as unknown[]).length})`);
    case "format":
      return at(`expected a valid ${e.params.format}, got ${quote(e.data)}`);
    case "pattern":
      // The slug rule in words for authors; a reader of built output checks against the schema's pattern.
      return content && e.params.pattern === SLUG_PATTERN
        ? at(`expected a slug (lower-case letters and digits, words joined by single "-"), got ${quote(e.data)}`)
        : at(`${quote(e.data)} does not match ${e.params.pattern}`);
    default:
      return at(`${e.message ?? e.keyword}, got ${quote(e.data)}`);
  }
}

const QUOTE_PREFIX = 40;

/**
 * A content value as an error message shows it (C3, C4): short strings and numbers whole, a long string as a short
 * prefix with its length, objects and arrays by kind only. Only ever called with values parsed from content files.
 */
export function quote(value: unknown): string {
  if (typeof value === "string") {
    const chars = [...value.slice(0, QUOTE_PREFIX * 2)];
    if (chars.length <= QUOTE_PREFIX) return JSON.stringify(value);
    return `${JSON.stringify(chars.slice(0, QUOTE_PREFIX).join(""))}… (${countChars(value)} characters)`;
  }
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value !== null && typeof value === "object") return "an object";
  return JSON.stringify(value) ?? String(value);
}

/** Characters as JSON Schema counts them (code points), without copying a string that may be 50 MB. */
export function countChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++; // a low surrogate completes a pair already counted
  }
  return n;
}
