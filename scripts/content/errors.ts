/** A problem in one content file, at one field path: `content/tools/acme.json: pricingPlans[1].price: …`. */
export interface ContentError {
  file: string;
  path: string;
  message: string;
}

/**
 * A placeholder in one file's strings (TODO text, a .example address: placeholders.ts), without the file's name: the
 * same wherever the file is, so the content cache keeps it with the file.
 */
export interface FilePlaceholder extends Omit<ContentError, "file"> {
  kind: "todo" | "example-address";
}

export function formatContentError({ file, path, message }: ContentError): string {
  return path ? `${file}: ${path}: ${message}` : `${file}: ${message}`;
}

/** Thrown by the build when content is invalid; carries every error at once. */
export class ContentErrors extends Error {
  constructor(
    readonly errors: ContentError[],
    message = `${errors.length} content error${errors.length === 1 ? "" : "s"}`,
  ) {
    super(message);
  }
}

/** `/pricingPlans/1/price` → `pricingPlans[1].price` */
export function fieldPath(segments: readonly (string | number)[]): string {
  return segments.map((s, i) => (typeof s === "number" || /^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}
