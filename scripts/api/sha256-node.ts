// A body's SHA-256 in Node, hex: the name the build manifest, the hash tree (E2), R2's content-addressed objects and
// the mirror's checks all give the same bytes.
import { hash } from "node:crypto";

// One call, no Hash object per body: for many small inputs crypto.hash is much faster than a Hash object each.
export const sha256Hex = (body: string | Uint8Array): string => hash("sha256", body, "hex");
