// The physical floor of a build: extracting the same finished tree with tar onto the same disk.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, statfs } from "node:fs/promises";
import { freemem } from "node:os";
import { join } from "node:path";
import { removeTree, settleDisk } from "./disk.ts";
import { runOrThrow } from "./measured-run.ts";

const SHM = "/dev/shm";

/** The archive is kept in memory when it fits with room to spare: writing it to disk and flushing it costs the run
 *  a long wait at the larger sizes and changes nothing in the timing, which reads it from the page cache either way. */
async function archiveFolder(scratchDir: string, archiveBytes: number): Promise<string> {
  if (existsSync(SHM)) {
    const s = await statfs(SHM);
    if (s.bavail * s.bsize > archiveBytes * 1.2 && freemem() > archiveBytes + 4e9)
      return mkdtemp(join(SHM, "bench-floor-"));
  }
  return mkdtemp(join(scratchDir, "floor-archive-"));
}

/** Seconds of `tar -x` of `tree` into a fresh folder under `scratchDir`. Archiving and clean-up are not timed. */
export async function tarExtractSeconds(
  tree: string,
  size: { files: number; bytes: number },
  scratchDir: string,
): Promise<number> {
  // tar stores a 512-byte header per file and pads each body to 512 bytes
  const archiveDir = await archiveFolder(scratchDir, size.bytes + size.files * 1024);
  const archive = join(archiveDir, "floor.tar");
  const target = join(scratchDir, "floor-extract");
  await removeTree(target);
  await mkdir(target, { recursive: true });
  try {
    await runOrThrow("tar", ["-cf", archive, "-C", tree, "."]);
    await settleDisk();
    const run = await runOrThrow("tar", ["-xf", archive, "-C", target]);
    return run.seconds;
  } finally {
    await rm(archiveDir, { recursive: true, force: true });
    await removeTree(target);
  }
}
