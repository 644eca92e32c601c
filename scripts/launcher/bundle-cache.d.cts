/** esbuild's options for the bundle of a command's entry (CommonJS, packages left external); see bundle-cache.cjs. */
export function commandBundleOptions(entry: string): import("esbuild").BuildOptions;

/** The path of a cached Node bundle of a command (project-relative entry); see bundle-cache.cjs. */
export function cachedCommandBundle(entry: string): Promise<string>;

/** cachedCommandBundle's path, or undefined after a line on stderr: "note: <what> through tsx (no bundle: …)". */
export function commandBundleOrNote(entry: string, what: string): Promise<string | undefined>;

/** The path of that bundle when it is there and up to date, found synchronously; else undefined. */
export function freshCommandBundle(entry: string): string | undefined;

/** The text of a cached, self-contained bundle of a project-relative entry. */
export function cachedBundleTextSync(
  entry: string,
  options: { platform: "node" | "neutral" | "browser"; target: string; alias?: Record<string, string> },
): string;
