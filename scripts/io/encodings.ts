// Precompressed siblings of each body (`x.json.gz`, `x.json.br`, where api/runtime/route-table.ts lays them), served
// with Content-Encoding by the hosts. Only the build compresses.

import { createRequire } from "node:module";
import { CODINGS, type Coding, MIN_COMPRESS_BYTES } from "../api/runtime/route-table.ts";

/** zlib on first use: loading it adds to every build's start-up, and only --compress needs it. */
let loaded: typeof import("node:zlib") | undefined;
const zlib = () => (loaded ??= createRequire(import.meta.url)("node:zlib") as typeof import("node:zlib"));

function brotli(body: Buffer): Buffer {
  const { brotliCompressSync, constants } = zlib();
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
  });
}

const ENCODE: Record<Coding, (body: Buffer) => Buffer> = {
  br: brotli,
  gzip: (b) => zlib().gzipSync(b, { level: 6 }),
};

/** The sibling paths a body may have beside it: `x.json.br`, `x.json.gz`. */
export const siblingPaths = (path: string): string[] => CODINGS.map((c) => path + c.suffix);

/** What a body's siblings become: each coding written, or (too small to gain) any old ones removed. */
export function siblingsOf(path: string, body: Buffer): { write: { path: string; body: Buffer }[]; remove: string[] } {
  if (body.byteLength < MIN_COMPRESS_BYTES) return { write: [], remove: siblingPaths(path) };
  return { write: CODINGS.map((c) => ({ path: path + c.suffix, body: ENCODE[c.name](body) })), remove: [] };
}

/** One body in one coding, exactly as the build writes its sibling (the Node server compresses pages from runs). */
export const encodeBody = (coding: Coding, body: Buffer): Buffer => ENCODE[coding](body);
