// What GET /search?q= should answer, by brute force over the tools (S1): no index, every name split anew.
import type { ToolFacts } from "./catalog.ts";

/** A name's words as S1 defines them: NFKD, combining marks dropped, lower-cased, split at all but a–z and 0–9. */
export function wordsOf(name: string): string[] {
  const plain = [...name.normalize("NFKD")].filter((ch) => !/\p{M}/u.test(ch)).join("");
  const words: string[] = [];
  let word = "";
  for (const ch of plain.toLowerCase()) {
    if ((ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9")) word += ch;
    else if (word !== "") {
      words.push(word);
      word = "";
    }
  }
  if (word !== "") words.push(word);
  return words;
}

/** The tools (in the order given: O1 for the catalog's) with a word starting with q. */
export function bruteForceSearch<T extends Pick<ToolFacts, "name">>(tools: readonly T[], q: string): T[] {
  return tools.filter((t) => wordsOf(t.name).some((w) => w.startsWith(q)));
}
