/** One file of dist/: a path relative to dist/ and its exact bytes. Render functions return these; only io/ writes them. */
export interface OutputFile {
  path: string;
  body: string | Uint8Array;
  /**
   * Validates the value the body was serialized from (throws when it breaks its schema). Called by the writer for
   * each file it writes: a body equal to one the previous build of the same code wrote was checked then.
   */
  check?: () => void;
}

/** Response bodies are compact JSON: no whitespace, no trailing newline, keys in insertion (contract) order. */
export const json = (value: unknown): string => JSON.stringify(value);
