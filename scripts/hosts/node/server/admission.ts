// Admission to the server's caches on a key's second request (TinyLFU's "doorkeeper"): over a working set far larger
// than a cache, nearly every key is requested once within the cache's lifetime, and caching it would only cost an
// insert, an eviction and memory held for nothing. A key seen again among the recently seen ones is worth keeping.

/** Some thousands of names: a key asked for twice within a few seconds of heavy traffic is kept. */
export const DEFAULT_RECENT_BYTES = 512 * 1024;

/** What remembering one key costs besides its characters (UTF-16 in memory): the Set slot and the string header. */
const KEY_OVERHEAD = 64;

export class Doorkeeper {
  private readonly seen = new Set<string>();
  private bytes = 0;

  /** `maxBytes` bounds the recently seen keys (characters included); 0 admits every key at once. */
  constructor(private readonly maxBytes: number) {}

  /** Whether `key` may be cached now: it was seen recently (and is forgotten here, being cached), or the door is open. */
  admit(key: string): boolean {
    if (this.maxBytes === 0) return true;
    if (this.seen.delete(key)) {
      this.bytes -= cost(key);
      return true;
    }
    this.seen.add(key);
    this.bytes += cost(key);
    // Oldest first: a Set iterates in insertion order.
    while (this.bytes > this.maxBytes) {
      const oldest = this.seen.values().next().value as string;
      this.seen.delete(oldest);
      this.bytes -= cost(oldest);
    }
    return false;
  }

  /** Bytes held (estimated). */
  get size(): number {
    return this.bytes;
  }
}

const cost = (key: string) => 2 * key.length + KEY_OVERHEAD;
