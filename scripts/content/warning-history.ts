// What the last good build warned about, so that the next one prints only what is news: a warning about a file changed
// since, whole and first; one the last build printed already, counted in one line. Kept in the store folder beside the
// content cache (never in the content folder, never in a published build), written only when it changes.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeCacheFile } from "../launcher/project-cache.cjs";
import type { ContentFile } from "./load.ts";
import type { ContentWarning } from "./placeholders.ts";

export const WARNING_HISTORY_FILE = ".warnings-shown.json";

/** Each warning of a build against the last build's (indexes into its content warnings and host warnings). */
export interface WarningHistory {
  /** whether a build before left its warnings (false: a first build, where nothing is news or old) */
  known: boolean;
  /** content warnings about a file changed since the last build (or new to it) */
  changed: number[];
  /** content warnings the last build printed, of files unchanged since */
  seen: number[];
  /** host warnings the last build printed */
  seenHost: number[];
}

interface Remembered {
  /** each file with a warning, and the sha1 of its text then */
  files: Record<string, string>;
  warnings: string[];
  host: string[];
}

const keyOf = (w: ContentWarning) => `${w.kind}\t${w.file}\t${w.path}\t${w.message}`;

export interface WarningCheck {
  history: WarningHistory;
  /** after publication: remembers this build's warnings for the next one (best effort) */
  remember(): void;
}

/**
 * Compares this build's warnings with the last good build's. `files`: the build's content files, in groups (a recalled
 * one is unchanged since the last good build; another is unchanged when its text hashes as it did then).
 */
export function checkWarnings(
  storeDir: string,
  files: readonly (readonly ContentFile[])[],
  warnings: readonly ContentWarning[],
  host: readonly string[],
): WarningCheck {
  const path = join(storeDir, WARNING_HISTORY_FILE);
  const named = new Set(warnings.map((w) => w.file));
  const byName = new Map<string, ContentFile>();
  if (named.size > 0) for (const group of files) for (const f of group) if (named.has(f.file)) byName.set(f.file, f);
  const next: Remembered = { files: {}, warnings: warnings.map(keyOf), host: [...host] };
  for (const [name, f] of byName) if (f.source) next.files[name] = f.source;
  const text = JSON.stringify(next);
  let before: string | undefined;
  try {
    before = readFileSync(path, "utf8");
  } catch {
    // none yet
  }
  const remember = () => {
    if (text === before) return;
    try {
      if (warnings.length === 0 && host.length === 0) rmSync(path, { force: true });
      else writeCacheFile(path, text);
    } catch {
      // without it the next build prints every warning as new, which is all it costs
    }
  };
  const all = (n: number) => Array.from({ length: n }, (_, i) => i);
  // The same warnings of the same files: all of them printed before (the common rebuild, decided without parsing).
  if (text === before)
    return { history: { known: true, changed: [], seen: all(warnings.length), seenHost: all(host.length) }, remember };
  let last: Remembered | undefined;
  try {
    last = before === undefined ? undefined : (JSON.parse(before) as Remembered);
  } catch {
    last = undefined;
  }
  if (!last?.files || !Array.isArray(last.warnings) || !Array.isArray(last.host))
    return { history: { known: false, changed: [], seen: [], seenHost: [] }, remember };
  const printed = new Set(last.warnings);
  const history: WarningHistory = { known: true, changed: [], seen: [], seenHost: [] };
  warnings.forEach((w, i) => {
    const f = byName.get(w.file);
    const unchanged = f?.valid === true || (f?.source !== undefined && last.files[w.file] === f.source);
    if (!unchanged) history.changed.push(i);
    else if (printed.has(keyOf(w))) history.seen.push(i);
  });
  const printedHost = new Set(last.host);
  host.forEach((h, i) => {
    if (printedHost.has(h)) history.seenHost.push(i);
  });
  return { history, remember };
}
