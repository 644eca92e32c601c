export const PROJECT_ROOT: string;
export const CACHE_DIR: string;

/** Writes a file of the cache whole or not at all: its bytes, or its parts in order (each made when it is written). */
export function writeCacheFile(path: string, data: string | Uint8Array | Iterable<Uint8Array>): void;
