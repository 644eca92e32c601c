// The ETag every host but nginx sends for a body (H3): the first 22 base64url characters of the SHA-256 of its bytes,
// quoted. A hash of the bytes alone, so the same body has the same ETag on every host and after every rebuild (H6),
// and the one the build records (its SHA-256) gives it without reading the body again. This is the WebCrypto form
// (the Worker); etag-node.ts gives the same string in Node.

/** The ETag of a body whose SHA-256 is `hex` (as the build records it): its first 22 base64url characters, quoted. */
export function etagFromSha256Hex(hex: string): string {
  let binary = "";
  for (let i = 0; i < 34; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return `"${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").slice(0, 22)}"`;
}

/** The ETag of `body`, with WebCrypto (Web APIs only: runs in workerd). */
export async function etagOfBytes(body: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return etagFromSha256Hex(hex);
}
