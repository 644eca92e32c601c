// A body written as it is made, piece by piece, through one small buffer: hashed and written without ever being one
// string or one buffer. The catalog body grows with the catalog: made whole, a rebuild held it as a string, its bytes and
// every item of it at once, memory touched for the first time (slow on a virtual machine).

import { createHash } from "node:crypto";
import { closeSync, openSync, unlinkSync, writeSync } from "node:fs";
import { withPath } from "./file-errors.ts";

/** Encodes one piece at a time: a piece's UTF-8 is at most three bytes for each of its UTF-16 units. */
let scratch = Buffer.allocUnsafe(0);
function encoded(piece: string): Buffer {
  if (scratch.length < piece.length * 3) scratch = Buffer.allocUnsafe(Math.max(piece.length * 3, 64 * 1024));
  return scratch.subarray(0, scratch.write(piece));
}

/**
 * Writes `pieces` into a new file at `path` (refused if one is there) and returns the SHA-256 (hex) and size of what
 * it wrote. Each text piece must end where a character does (no half of a surrogate pair); a piece of bytes is
 * written as it is. A failure leaves no file.
 */
export function writeInPieces(path: string, pieces: Iterable<string | Uint8Array>): { sha256: string; size: number } {
  const hash = createHash("sha256");
  let size = 0;
  let fd: number | undefined;
  try {
    fd = openSync(path, "wx");
    for (const piece of pieces) {
      const bytes = typeof piece === "string" ? encoded(piece) : piece;
      hash.update(bytes);
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
      size += bytes.length;
    }
  } catch (e) {
    if (fd !== undefined) {
      closeSync(fd);
      fd = undefined;
      unlinkSync(path);
    }
    throw withPath(e, path);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return { sha256: hash.digest("hex"), size };
}
