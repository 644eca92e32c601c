export const PROJECT_ROOT: string;
export const CACHE_DIR: string;

/** Writes a file of the cache whole or not at all. */
export function writeCacheFile(path: string, data: string | Uint8Array): void;
