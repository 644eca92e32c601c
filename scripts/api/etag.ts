// The ETag every host sends for a body (H3): the first 22 base64url characters of the SHA-1 of its bytes, quoted.
// A hash of the bytes alone, so the same body has the same ETag on every host and after every rebuild (H6). This is
// the WebCrypto form (the Worker); etag-node.ts gives the same string in Node.

/** `"…"` from a SHA-1 digest in base64url. */
export const etagFromSha1 = (base64url: string): string => `"${base64url.slice(0, 22)}"`;

/** The ETag of `body`, with WebCrypto (Web APIs only: runs in workerd). */
export async function etagOfBytes(body: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", body));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return etagFromSha1(btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
}

/** The ETag of a body whose SHA-256 is `hex` (as the build records it): its first 22 base64url characters, quoted. */
export function etagFromSha256Hex(hex: string): string {
  let binary = "";
  for (let i = 0; i < 34; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return `"${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").slice(0, 22)}"`;
}
