// A body's SHA-256 in Node, hex: the name the build manifest, the hash tree (E2), R2's content-addressed objects and
// the mirror's checks all give the same bytes.
import { createHash } from "node:crypto";

export const sha256Hex = (body: string | Uint8Array): string => createHash("sha256").update(body).digest("hex");
