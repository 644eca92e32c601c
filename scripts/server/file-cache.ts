// dist/ files in memory with their ETags, bounded by bytes (least recently used out first).
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

export class FileCache {
  private readonly entries = new Map<string, CachedFile | null>();
  private bytes = 0;

  constructor(
    private readonly root: string,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly maxMisses = 100_000,
  ) {}

  /** The file if cached (refreshing its recency), `null` for a known miss, `undefined` when not known yet. */
  peek(file: string): CachedFile | null | undefined {
    const hit = this.entries.get(file);
    if (hit) {
      this.entries.delete(file);
      this.entries.set(file, hit);
    }
    return hit;
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
    this.entries.set(file, value);
    if (value) this.bytes += sizeOf(value);
    for (const [key, old] of this.entries) {
      if (this.bytes <= this.maxBytes && this.entries.size <= this.maxMisses) break;
      this.entries.delete(key);
      if (old) this.bytes -= sizeOf(old);
    }
  }
}

const sizeOf = (f: CachedFile) => f.encoded.reduce((n, e) => n + e.body.byteLength, f.body.byteLength);
