// What `npm run new:tool` and `npm run new:category` leave for a person to replace, found in valid content: a build
// warns about it (and fails under --strict) instead of publishing it silently.

import { type ContentError, type FilePlaceholder, fieldPath } from "./errors.ts";
import { foldName } from "./fold-name.ts";
import type { ContentFile } from "./load.ts";
import { wholeValue } from "./recalled-tool.ts";

export type PlaceholderKind = "todo" | "example-address" | "no-category" | "empty-category" | "same-name";

export interface ContentWarning extends ContentError {
  kind: PlaceholderKind;
}

/** How each kind is announced when a build groups them: one line a kind, then its files. */
export const PLACEHOLDER_TITLES: Record<PlaceholderKind, string> = {
  todo: "TODO text from the scaffold",
  "example-address": "placeholder addresses (.example is a reserved domain)",
  "no-category": "tools in no category",
  "empty-category": "categories with no tools",
  "same-name": "tools with the same name as another (a copy, or two tools a reader cannot tell apart)",
};

const TODO = /\bTODO\b/;

/** Whether a string is an http(s) address on a reserved .example domain (what the scaffold writes). */
function isExampleAddress(text: string): boolean {
  // Parsed only when it could name such a host (a percent sign may encode its letters): a thousand tools have two
  // addresses each.
  if (!/^https?:\/\//i.test(text) || !/example|%/i.test(text)) return false;
  try {
    const host = new URL(text).hostname;
    return host === "example" || host.endsWith(".example");
  } catch {
    return false;
  }
}

/**
 * Calls `visit` with every string of a JSON value and where it is (`at`, valid during the call only). `$schema` is
 * the editor's, not content. No closure or entry array per value: a thousand tools hold tens of thousands of strings.
 */
function eachString(value: unknown, visit: (text: string, at: (string | number)[]) => void, at: (string | number)[]) {
  if (typeof value === "string") visit(value, at);
  else if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      eachString(value[i], visit, at);
      at.pop();
    }
  else if (value !== null && typeof value === "object")
    for (const k in value) {
      if (k === "$schema" || !Object.hasOwn(value, k)) continue;
      at.push(k);
      eachString((value as Record<string, unknown>)[k], visit, at);
      at.pop();
    }
}

/** TODO text and .example addresses in one file's strings. */
function placeholdersIn(data: unknown): FilePlaceholder[] {
  const found: FilePlaceholder[] = [];
  eachString(
    data,
    (text, at) => {
      if (TODO.test(text))
        found.push({ path: fieldPath(at), kind: "todo", message: "still holds TODO text: write the real one" });
      else if (isExampleAddress(text))
        found.push({
          path: fieldPath(at),
          kind: "example-address",
          message: `${JSON.stringify(text)} is a placeholder address: give the real one`,
        });
    },
    [],
  );
  return found;
}

/** The placeholders of content that passed validation (every file parsed, every field of the right type). */
export function findPlaceholders(
  site: ContentFile | undefined,
  categories: ContentFile[],
  tools: ContentFile[],
): ContentWarning[] {
  const warnings: ContentWarning[] = [];
  for (const f of [...(site ? [site] : []), ...categories, ...tools]) {
    // Remembered with the file's text in the content cache: a rebuild looks only in the files read anew.
    const found = f.known ? (f.known.placeholders ??= placeholdersIn(wholeValue(f.data))) : placeholdersIn(f.data);
    // Named, not spread: spreading a value the cache recalled takes V8's slow path, 27,000 times in a landscape.
    for (const p of found) warnings.push({ file: f.file, path: p.path, kind: p.kind, message: p.message });
  }
  const inUse = new Set<string>();
  for (const f of tools) {
    const listed = (f.data as { categories: string[] }).categories;
    for (const slug of listed) inUse.add(slug);
    if (listed.length === 0)
      warnings.push({
        file: f.file,
        path: "categories",
        kind: "no-category",
        message: "the tool is in no category: no category's list or ranking shows it",
      });
  }
  // Compared as search compares names (accents and case aside): "Acme Mail" and "ACME mail" read as one tool.
  const firstWithName = new Map<string, ContentFile>();
  for (const f of tools) {
    const name = (f.data as { name: string }).name;
    const key = foldName(name).trim();
    const first = firstWithName.get(key);
    if (!first) firstWithName.set(key, f);
    else
      warnings.push({
        file: f.file,
        path: "name",
        kind: "same-name",
        message: `${JSON.stringify(name)} is also the name of ${first.file}: give each tool its own name`,
      });
  }
  for (const f of categories) {
    if (!inUse.has((f.data as { slug: string }).slug))
      warnings.push({
        file: f.file,
        path: "",
        kind: "empty-category",
        message: "no tool is in this category: its list is empty and it has no ranking",
      });
  }
  return warnings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
