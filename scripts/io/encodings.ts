// Precompressed siblings of each body (`x.json.gz`, `x.json.br`), served with Content-Encoding by the hosts.
import { zlib } from "./lazy-builtins.ts";

export interface Encoding {
  suffix: ".gz" | ".br";
  /** the Content-Encoding token */
  name: "gzip" | "br";
  encode(body: Buffer): Buffer;
}

function brotli(body: Buffer): Buffer {
  const { brotliCompressSync, constants } = zlib();
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } });
}

export const ENCODINGS: Encoding[] = [
  { suffix: ".br", name: "br", encode: brotli },
  { suffix: ".gz", name: "gzip", encode: (b) => zlib().gzipSync(b, { level: 6 }) },
];

/** Bodies this small gain nothing from compression: not worth a file. */
export const MIN_COMPRESS_BYTES = 1024;

/** The sibling paths a body may have beside it: `x.json.br`, `x.json.gz`. */
export const siblingPaths = (path: string): string[] => ENCODINGS.map((e) => path + e.suffix);

/** What a body's siblings become: each coding written, or (too small to gain) any old ones removed. */
export function siblingsOf(path: string, body: Buffer): { write: { path: string; body: Buffer }[]; remove: string[] } {
  if (body.byteLength < MIN_COMPRESS_BYTES) return { write: [], remove: siblingPaths(path) };
  return { write: ENCODINGS.map((e) => ({ path: path + e.suffix, body: e.encode(body) })), remove: [] };
}
