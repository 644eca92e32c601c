// Precompressed siblings of each body (`x.json.gz`, `x.json.br`), served with Content-Encoding by the hosts.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export interface Encoding {
  suffix: ".gz" | ".br";
  /** the Content-Encoding token */
  name: "gzip" | "br";
  encode(body: Buffer): Buffer;
}

export const ENCODINGS: Encoding[] = [
  { suffix: ".br", name: "br", encode: (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: b.byteLength } }) },
  { suffix: ".gz", name: "gzip", encode: (b) => gzipSync(b, { level: 6 }) },
];

/** Bodies this small gain nothing from compression: not worth a file. */
export const MIN_COMPRESS_BYTES = 1024;
