// The ETag of a body in Node (node:crypto): the same string etag.ts gives with WebCrypto.
import { sha1 } from "../cli/file-hashes.mjs";
import { etagFromSha1 } from "./etag.ts";

export const etagOf = (body: Uint8Array): string => etagFromSha1(sha1(body));
