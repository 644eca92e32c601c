// Packs (worker/r2-layout.ts): bodies gzip-compressed one by one, and lists' pieces as they are, laid end to end, so
// any body is one ranged read that a client accepting gzip takes as it is, and any page's items one range of a piece;
// the pack ends with its index and the index's length, so an upload killed before its build was complete leaves packs
// the next upload can read back and reuse.
import { promisify } from "node:util";
import { constants, gzip } from "node:zlib";
import { sha256Hex } from "../../../api/sha256-node.ts";
import { PACK_TRAILER, type PackIndex, type StoredCoding } from "../worker/r2-layout.ts";

const gzipAsync = promisify(gzip);

/** One body, compressed as stored: deterministic (no name, no time), the best ratio, once per body ever. */
export const gzipBody = (body: Uint8Array): Promise<Buffer> => gzipAsync(body, { level: constants.Z_BEST_COMPRESSION });

/** A pack being filled; `seal()` gives its bytes and name once it is full. */
export class PackWriter {
  private chunks: Uint8Array[] = [];
  readonly index: PackIndex = [];
  bytes = 0;

  /** Appends one stored body (gzip-compressed, or as it is); its offset and length in the pack. */
  add(
    etag: string,
    size: number,
    stored: Uint8Array,
    coding: StoredCoding = "gzip",
  ): { offset: number; length: number } {
    const at = { offset: this.bytes, length: stored.byteLength };
    this.chunks.push(stored);
    this.index.push(
      coding === "gzip" ? [etag, size, at.offset, at.length] : [etag, size, at.offset, at.length, coding],
    );
    this.bytes += stored.byteLength;
    return at;
  }

  get empty(): boolean {
    return this.index.length === 0;
  }

  /** The pack's bytes (bodies, index, trailer) and its name: the first 32 hex digits of their SHA-256. */
  seal(): { name: string; body: Uint8Array } {
    const index = new TextEncoder().encode(JSON.stringify(this.index));
    const trailer = new TextEncoder().encode(String(index.byteLength).padStart(PACK_TRAILER, "0"));
    const body = Buffer.concat([...this.chunks, index, trailer]);
    return { name: sha256Hex(body).slice(0, 32), body };
  }
}

/** The index length a pack's last PACK_TRAILER bytes give. */
export const indexLength = (trailer: Uint8Array): number => Number(new TextDecoder().decode(trailer));

/** The index of a whole pack's bytes (a test's view of what a put sent). */
export function packIndexOf(body: Uint8Array): PackIndex {
  const length = indexLength(body.subarray(body.byteLength - PACK_TRAILER));
  const at = body.byteLength - PACK_TRAILER - length;
  return JSON.parse(new TextDecoder().decode(body.subarray(at, at + length))) as PackIndex;
}
