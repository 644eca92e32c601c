// Files planted in the built dist/ that no host may ever serve (P7): a dotfile and a config-looking file.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export const CANARY = "CONFORMANCE-CANARY-do-not-serve-5b1e";

/** paths below dist/ */
export const CANARY_FILES = [
  ".env",
  ".canary.json",
  "v1/.env",
  "v1/software/.canary.json",
  "v1/best/.canary.json",
  "v1/software/pages/all/.canary.json",
];

/** Plants every canary file in the build at `dist`. */
export async function plantCanaries(dist: string): Promise<void> {
  for (const file of CANARY_FILES) {
    await mkdir(dirname(join(dist, file)), { recursive: true });
    await writeFile(join(dist, file), JSON.stringify({ canary: CANARY }));
  }
}
