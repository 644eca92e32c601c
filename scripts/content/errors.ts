/** A problem in one content file, at one field path: `content/tools/x.json: plans[1].price: …`. */
export interface ContentError {
  file: string;
  path: string;
  message: string;
}

export function formatContentError({ file, path, message }: ContentError): string {
  return path ? `${file}: ${path}: ${message}` : `${file}: ${message}`;
}

/** Thrown by the build when content is invalid; carries every error at once. */
export class ContentErrors extends Error {
  constructor(readonly errors: ContentError[]) {
    super(`${errors.length} content error${errors.length === 1 ? "" : "s"}`);
  }
}

/** `/pricingPlans/1/price` → `pricingPlans[1].price` */
export function fieldPath(segments: readonly (string | number)[]): string {
  return segments
    .map((s, i) => (typeof s === "number" || /^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join("");
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
