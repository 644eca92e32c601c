// The counts one build reports of its own work, as the bench reads them from its --json: what the guard judges exactly.

/** What one build reports of its own work: the same code and catalog give the same numbers, run after run. */
export const COUNT_KEYS = [
  "files",
  "bytes",
  "written",
  "writtenBytes",
  "deleted",
  "rendered",
  "renderedBytes",
  "hashed",
  "hashedBytes",
] as const;
export type CountKey = (typeof COUNT_KEYS)[number];
/** null: the build did not report it */
export type BuildCounts = Record<CountKey, number | null>;
