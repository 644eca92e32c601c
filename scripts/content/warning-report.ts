// The warning lines a build prints, short enough that a new one is seen: a warning about a file changed since the last
// build first and whole; the others no build printed before, one line per kind; those the last build printed, one line
// in all. `--verbose` prints every warning whole. Pure: the history comes from warning-history.ts.
import { formatContentError } from "./errors.ts";
import { type ContentWarning, PLACEHOLDER_TITLES, type PlaceholderKind } from "./placeholders.ts";
import type { WarningHistory } from "./warning-history.ts";

/** How many of a kind are called: [one, several]. */
const NOUNS: Record<PlaceholderKind | "host", [string, string]> = {
  todo: ["TODO text", "TODO texts"],
  "example-address": ["placeholder address", "placeholder addresses"],
  "no-category": ["tool in no category", "tools in no category"],
  "empty-category": ["empty category", "empty categories"],
  "same-name": ["duplicate name", "duplicate names"],
  host: ["host limit", "host limits"],
};

const KINDS = Object.keys(PLACEHOLDER_TITLES) as PlaceholderKind[];

const counted = (n: number, kind: PlaceholderKind | "host") => `${n} ${NOUNS[kind][n === 1 ? 0 : 1]}`;

/** Said once, on the first placeholder a report prints. */
const STRICT_HINT = "--strict fails on placeholders";

/** The lines of a build's warnings, for a terminal. `host`: the host limits the tree passes, as sentences. */
export function warningReport(
  warnings: readonly ContentWarning[],
  host: readonly string[],
  history: WarningHistory,
  verbose = false,
): string[] {
  if (verbose) return everyWarning(warnings, host);
  const lines: string[] = [];
  let hinted = false;
  const hint = (notes: string[]) => {
    if (!hinted) notes.push(STRICT_HINT);
    hinted = true;
    return notes.length > 0 ? ` (${notes.join("; ")})` : "";
  };
  const changed = new Set(history.changed);
  const seen = new Set(history.seen);
  for (const i of history.changed) lines.push(`warning: ${formatContentError(warnings[i]!)}${hint([])}`);
  const fresh = warnings.filter((_, i) => !changed.has(i) && !seen.has(i));
  for (const kind of KINDS) {
    const of = fresh.filter((w) => w.kind === kind);
    if (of.length === 0) continue;
    if (of.length === 1) {
      lines.push(`warning: ${formatContentError(of[0]!)}${hint([])}`);
      continue;
    }
    const files = [...new Set(of.map((w) => w.file))];
    const where = files.length === 1 ? files[0] : `${files[0]} and ${files.length - 1} more files`;
    lines.push(`warning: ${counted(of.length, kind)} in ${where}${hint(["--verbose lists them"])}`);
  }
  const seenHost = new Set(history.seenHost);
  for (const [i, h] of host.entries()) if (!seenHost.has(i)) lines.push(`warning: ${h}`);
  const old = [...KINDS.map((kind) => history.seen.filter((i) => warnings[i]!.kind === kind).length), seenHost.size];
  const total = old.reduce((a, b) => a + b, 0);
  if (total > 0) {
    const kinds = [...KINDS, "host" as const].flatMap((kind, k) => (old[k]! > 0 ? [counted(old[k]!, kind)] : []));
    lines.push(
      `warning: ${total} ${total === 1 ? "warning" : "warnings"} the last build printed too (${kinds.join(", ")}): ` +
        "--verbose lists them",
    );
  }
  return lines;
}

/** Every warning whole, one title line per kind, and what placeholders mean for a deploy. */
function everyWarning(warnings: readonly ContentWarning[], host: readonly string[]): string[] {
  const lines: string[] = [];
  for (const kind of KINDS) {
    const of = warnings.filter((w) => w.kind === kind);
    if (of.length === 0) continue;
    lines.push(`warning: ${PLACEHOLDER_TITLES[kind]}, ${of.length} in all:`);
    for (const w of of) lines.push(`  ${formatContentError(w)}`);
  }
  if (lines.length > 0)
    lines.push("  (published as they are; replace them before you deploy: a build with --strict fails on them)");
  for (const h of host) lines.push(`warning: ${h}`);
  return lines;
}
