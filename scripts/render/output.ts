/** One file of dist/: a path relative to dist/ and its exact bytes. Render functions return these; only io/ writes them. */
export interface OutputFile {
  path: string;
  body: string | Uint8Array;
}

/** Response bodies are compact JSON: no whitespace, no trailing newline, keys in insertion (contract) order. */
export const json = (value: unknown): string => JSON.stringify(value);
