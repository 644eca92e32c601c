// Reusable buffers for the bodies of files read once and not cached (admission.ts). On a large working set nearly
// every request reads such a file: a fresh Buffer each time is garbage the collector has to find, memory held until
// it does, and one more system call (the size, before reading). A pooled buffer goes back once its response is
// handed to the kernel.
import { closeSync, openSync, readSync } from "node:fs";

/** Larger than nearly every body of a build; a larger file is read whole, unpooled. */
export const SLAB_BYTES = 64 * 1024;

export interface PooledBody {
  body: Buffer;
  /** gives the buffer back; call once nothing will read `body` any more (later calls do nothing) */
  release(): void;
}

export class BodyPool {
  private readonly free: Buffer[] = [];

  /** `maxFree` buffers are kept for reuse; more are left to the collector. */
  constructor(private readonly maxFree = 64) {}

  /**
   * The file at `path` read into a pooled buffer, or null when it is larger than one (then read it otherwise).
   * Errors are those of openSync and readSync.
   */
  read(path: string): PooledBody | null {
    const fd = openSync(path, "r");
    try {
      const slab = this.free.pop() ?? Buffer.allocUnsafeSlow(SLAB_BYTES);
      // A regular file reads short only at its end: fewer bytes than asked for is the whole file.
      const n = readSync(fd, slab, 0, SLAB_BYTES, 0);
      if (n === SLAB_BYTES) {
        this.give(slab);
        return null;
      }
      let given = false;
      return {
        body: slab.subarray(0, n),
        release: () => {
          if (given) return;
          given = true;
          this.give(slab);
        },
      };
    } finally {
      closeSync(fd);
    }
  }

  /**
   * A whole buffer (SLAB_BYTES) to fill, for a body made rather than read as a file (a page from a run): `body` is the
   * slab, to be cut to what was written.
   */
  lend(): PooledBody {
    const slab = this.free.pop() ?? Buffer.allocUnsafeSlow(SLAB_BYTES);
    let given = false;
    return {
      body: slab,
      release: () => {
        if (given) return;
        given = true;
        this.give(slab);
      },
    };
  }

  /** Buffers ready for reuse. */
  get size(): number {
    return this.free.length;
  }

  private give(slab: Buffer): void {
    if (this.free.length < this.maxFree) this.free.push(slab);
  }
}
