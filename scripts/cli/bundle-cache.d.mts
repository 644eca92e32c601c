export const PROJECT_ROOT: string;
export const CACHE_DIR: string;

/** Writes a file of the cache whole or not at all. */
export function writeCacheFile(path: string, data: string | Uint8Array): void;

/** The path of a cached Node bundle of a command (project-relative entry); see bundle-cache.mjs. */
export function cachedCommandBundle(entry: string): Promise<string>;

/** The text of a cached, self-contained bundle of a project-relative entry. */
export function cachedBundleTextSync(entry: string, options: { platform: "node" | "neutral" | "browser"; target: string }): string;
