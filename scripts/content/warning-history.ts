// What the last build printed, so that the next one prints only what is news: a warning about a file changed since,
// whole and first; one the last build printed already, counted in one line. A warning found in one file alone (TODO
// text, a placeholder address, no category) is the same as long as its file is: the content cache says which files
// are unchanged since the last good build (a file changed in a build's last seconds is not in it: its text's hash is
// remembered here instead). The few that depend on other files (a name two tools share, a category no tool names)
// and the host limits are remembered as they were printed, in the store folder beside the content cache (never in
// the content folder, never in a published build).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeCacheFile } from "../launcher/project-cache.cjs";
import type { ContentFile, KnownFiles } from "./load.ts";
import type { ContentWarning, PlaceholderKind } from "./placeholders.ts";

export const WARNING_HISTORY_FILE = ".warnings-shown.json";

/** Kinds a warning of which depends on other files than its own. */
const ACROSS_FILES: ReadonlySet<PlaceholderKind> = new Set(["same-name", "empty-category"]);

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
  /** the warnings that depend on other files, as printed */
  across: string[];
  host: string[];
  /** warned-of files the content cache does not remember (changed in the build's last seconds): their text's sha1 */
  unsettled: Record<string, string>;
}

const keyOf = (w: ContentWarning) => `${w.kind}\t${w.file}\t${w.path}\t${w.message}`;

export interface WarningCheck {
  history: WarningHistory;
  /** after publication, when the warnings are printed: remembers them for the next build (best effort) */
  remember(): void;
}

/**
 * Compares this build's warnings with the last build's. `files`: the build's content files, in groups (a recalled one
 * is unchanged since the last good build); `cached`: the content cache the build started from (empty for a --full
 * build, which then tells no file as changed).
 */
export function checkWarnings(
  storeDir: string,
  files: readonly (readonly ContentFile[])[],
  warnings: readonly ContentWarning[],
  host: readonly string[],
  cached: KnownFiles,
): WarningCheck {
  const path = join(storeDir, WARNING_HISTORY_FILE);
  const next: Remembered = { across: [], host: [...host], unsettled: {} };
  for (const w of warnings) if (ACROSS_FILES.has(w.kind)) next.across.push(keyOf(w));
  const named = new Set(warnings.map((w) => w.file));
  const warnedOf: ContentFile[] = [];
  for (const group of files) for (const f of group) if (named.has(f.file)) warnedOf.push(f);
  for (const f of warnedOf) if (!f.valid && !f.known && f.source) next.unsettled[f.file] = f.source;
  const text = JSON.stringify(next);
  let last: Remembered | undefined;
  let before: string | undefined;
  try {
    before = readFileSync(path, "utf8");
    last = JSON.parse(before) as Remembered;
  } catch {
    // none yet (a first build), or unreadable: every warning is printed as new
  }
  const remember = () => {
    if (text === before) return;
    try {
      writeCacheFile(path, text);
    } catch {
      // without it the next build prints every warning as new, which is all it costs
    }
  };
  const history: WarningHistory = { known: false, changed: [], seen: [], seenHost: [] };
  if (!Array.isArray(last?.across) || !Array.isArray(last.host) || typeof last.unsettled !== "object")
    return { history, remember };
  history.known = true;

  // Each warned-of file: unchanged, changed, or unknown (nothing to compare it with: a --full build).
  const unsettled = last.unsettled;
  const comparable = cached.size > 0 || Object.keys(unsettled).length > 0;
  const state = new Map<string, "unchanged" | "changed" | "unknown">();
  for (const f of warnedOf) {
    const before = f.valid ? f.source : (cached.get(resolve(f.file))?.hash ?? unsettled[f.file]);
    state.set(f.file, before !== undefined && before === f.source ? "unchanged" : comparable ? "changed" : "unknown");
  }
  const printed = new Set(last.across);
  warnings.forEach((w, i) => {
    const file = state.get(w.file) ?? "unknown";
    if (file === "changed") history.changed.push(i);
    else if (ACROSS_FILES.has(w.kind) ? printed.has(keyOf(w)) : file === "unchanged") history.seen.push(i);
  });
  const printedHost = new Set(last.host);
  host.forEach((h, i) => {
    if (printedHost.has(h)) history.seenHost.push(i);
  });
  return { history, remember };
}
