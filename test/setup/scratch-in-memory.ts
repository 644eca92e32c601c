// Test scratch folders in memory where the machine has room for them (a roomy /dev/shm): the suite writes hundreds
// of thousands of small files (builds of the sample, killed and raced builds, local R2 buckets, clean clones), and
// waiting on the disk for them was much of npm test's time. A TMPDIR set by the user is kept. Read by both vitest
// configs before any test starts, so every test, global setup and child process inherits it.
import { statfsSync } from "node:fs";
import { totalmem } from "node:os";

const SHM = "/dev/shm";
const GiB = 1024 ** 3;
/** The suite's scratch peaks at a few GiB at once; tmpfs pages are memory, so ask for more room than that. */
const ROOM = 8 * GiB;

export function scratchInMemory(): void {
  if (process.env.TMPDIR || totalmem() < 2 * ROOM) return;
  try {
    const fs = statfsSync(SHM);
    if (fs.bavail * fs.bsize >= ROOM) process.env.TMPDIR = SHM;
  } catch {
    // no /dev/shm (not Linux): the system's temporary folder
  }
}
