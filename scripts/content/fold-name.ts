// How names are folded wherever two names are compared as a reader sees them: search's words (S1), the warning for
// two tools of the same name, the MCP server's search input. Here, below the model, so content checks can use it.

/** Printable ASCII, which NFKD leaves as it is and which holds no combining mark: most names. */
const ASCII = /^[ -~]*$/;

/** A text folded as names are for search: accents removed (NFKD, combining marks dropped), lower-cased. */
export const foldName = (text: string): string =>
  ASCII.test(text) ? text.toLowerCase() : text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
