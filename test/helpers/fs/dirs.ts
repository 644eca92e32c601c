import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const fixture = (name: string) => join(repoRoot, "test/fixtures", name);
export const sampleContent = join(repoRoot, "content");

/** A fresh temporary folder, and a function that removes it. */
export async function tempDir(prefix = "msapi-"): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
