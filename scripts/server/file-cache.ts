// dist/ files in memory with their ETags, bounded by bytes. Eviction is second-chance FIFO: a hit only sets a flag
// (no map mutation on the hot path); a flagged entry at the front gets moved to the back once instead of evicted.
// dist/ does not change while a server runs on it, so a miss is remembered too.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ENCODINGS } from "../io/encodings.ts";

export interface CachedFile {
  body: Buffer;
  /** strong validator: a hash of the bytes, the same on every host and every rebuild of the same content (H6) */
  etag: string;
  /** precompressed siblings written by `build --compress` (x.json.br, x.json.gz), when present */
  encoded: { name: "br" | "gzip"; body: Buffer }[];
}

export function etagOf(body: Uint8Array): string {
  return `"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`;
}

interface Entry {
  value: CachedFile | null;
  used: boolean;
}

export class FileCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly root: string,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly maxEntries = 100_000,
  ) {}

  /** The file if cached, `null` for a known miss, `undefined` when not known yet. */
  peek(file: string): CachedFile | null | undefined {
    const entry = this.entries.get(file);
    if (!entry) return undefined;
    entry.used = true;
    return entry.value;
  }

  async get(file: string): Promise<CachedFile | null> {
    const known = this.peek(file);
    if (known !== undefined) return known;
    let loaded: CachedFile | null;
    try {
      const path = join(this.root, file);
      const body = await readFile(path);
      const siblings = await Promise.all(ENCODINGS.map((e) => readFile(path + e.suffix).then((b) => ({ name: e.name, body: b }), () => undefined)));
      loaded = { body, etag: etagOf(body), encoded: siblings.filter((x) => x !== undefined) };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "EISDIR") throw e;
      loaded = null;
    }
    this.remember(file, loaded);
    return loaded;
  }

  private remember(file: string, value: CachedFile | null): void {
    if (this.entries.has(file)) return;
    this.entries.set(file, { value, used: false });
    if (value) this.bytes += sizeOf(value);
    // Bounded: each entry gets at most one second chance per pass.
    for (let budget = this.entries.size * 2; budget > 0 && (this.bytes > this.maxBytes || this.entries.size > this.maxEntries); budget--) {
      const [key, oldest] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(key);
      if (oldest.used && key !== file) {
        oldest.used = false;
        this.entries.set(key, oldest);
      } else if (oldest.value) this.bytes -= sizeOf(oldest.value);
    }
  }
}

const sizeOf = (f: CachedFile) => f.encoded.reduce((n, e) => n + e.body.byteLength, f.body.byteLength);
