// S1: the words of a tool's name that search matches by prefix.
import { foldName } from "../content/fold-name.ts";

/** The longest search prefix (S2): words are indexed to this many characters. The API's limit is this one
 *  (api/operations.ts), kept here because the model is the layer below the API. */
export const MAX_SEARCH_PREFIX = 32;

/** The folded name split at every character not a-z or 0-9. */
export function nameWords(name: string): string[] {
  return foldName(name)
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/** The first word of the first tool name that has one: what the examples search for (its first four letters). */
export function firstNameWord(tools: readonly { name: string }[]): string | undefined {
  for (const t of tools) {
    const word = nameWords(t.name)[0];
    if (word !== undefined) return word;
  }
  return undefined;
}

/**
 * Every prefix search answers for these tools (a word of length L gives L prefixes, at most 32), each with the
 * indexes of the tools that have it, in the order the tools came (O1 for the catalog's).
 */
export function prefixIndex(names: readonly string[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  names.forEach((name, i) => {
    const seen = new Set<string>();
    for (const word of nameWords(name)) {
      for (let end = 1; end <= Math.min(word.length, MAX_SEARCH_PREFIX); end++) {
        const prefix = word.slice(0, end);
        if (seen.has(prefix)) continue;
        seen.add(prefix);
        const tools = index.get(prefix);
        if (tools) tools.push(i);
        else index.set(prefix, [i]);
      }
    }
  });
  return index;
}

/**
 * The indexes of the tools one prefix matches, in the order the tools came: `prefixIndex(names).get(q) ?? []`
 * without making the whole index (the description's example asks for one prefix; a rebuild that keeps every search
 * answer never makes the index).
 */
export function toolsWithPrefix(tools: readonly { name: string }[], q: string): number[] {
  if (q === "" || q.length > MAX_SEARCH_PREFIX) return [];
  const out: number[] = [];
  tools.forEach((t, i) => {
    if (nameWords(t.name).some((word) => word.startsWith(q))) out.push(i);
  });
  return out;
}

const indexes = new WeakMap<readonly { name: string }[], Map<string, number[]>>();

/** The prefix index of these tools' names, made once per array: the search bodies and the description's examples share it. */
export function toolPrefixIndex(tools: readonly { name: string }[]): Map<string, number[]> {
  let index = indexes.get(tools);
  if (!index) indexes.set(tools, (index = prefixIndex(tools.map((t) => t.name))));
  return index;
}

/**
 * The indexes of the tools whose name has, for each of `words`, a word starting with it (several words people type:
 * "sparrow sms"), in the order the tools came. The words are taken as given: fold them with nameWords first.
 */
export function toolsWithEveryPrefix(tools: readonly { name: string }[], words: readonly string[]): number[] {
  if (words.length === 0) return [];
  const out: number[] = [];
  tools.forEach((t, i) => {
    const own = nameWords(t.name);
    if (words.every((w) => own.some((word) => word.startsWith(w)))) out.push(i);
  });
  return out;
}
