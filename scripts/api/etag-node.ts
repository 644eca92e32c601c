// The ETag of a body in Node (node:crypto): the same string etag.ts gives with WebCrypto.
import { createHash } from "node:crypto";

export const etagOf = (body: Uint8Array): string =>
  `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
