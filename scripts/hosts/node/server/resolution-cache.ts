// URL-keyed resolutions of one build, bounded in bytes: keys are request targets a client chooses, so their size
// is the client's to pick. Long targets are never kept (resolving them again is cheap); eviction is FIFO. A target is
// kept from its second request among the recently seen ones (admission.ts), as file bodies are.

import type { Decision } from "../../../api/runtime/resolve-request.ts";
import { DEFAULT_RECENT_BYTES, Doorkeeper } from "./admission.ts";

/** Targets longer than this are resolved every time: no real client repeats a kilobyte-long URL. */
const MAX_KEY_LENGTH = 512;
/** A Map slot, the resolution object and its file name, besides the key itself. */
const ENTRY_OVERHEAD = 200;

export class ResolutionCache {
  private readonly entries = new Map<string, Decision>();
  private readonly doorkeeper: Doorkeeper;
  private bytes = 0;

  /** `recentBytes`: the recently seen targets a target must be among to be kept; 0 keeps every target at once */
  constructor(
    private readonly maxBytes = 8 * 1024 * 1024,
    recentBytes = DEFAULT_RECENT_BYTES,
  ) {
    this.doorkeeper = new Doorkeeper(recentBytes);
  }

  get(target: string): Decision | undefined {
    return this.entries.get(target);
  }

  set(target: string, r: Decision): void {
    if (target.length > MAX_KEY_LENGTH || this.entries.has(target) || !this.doorkeeper.admit(target)) return;
    this.entries.set(target, r);
    this.bytes += cost(target);
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.bytes -= cost(oldest);
    }
  }

  /** Bytes held (estimated: keys as UTF-16 plus a fixed overhead per entry), and the recently seen targets. */
  get size(): number {
    return this.bytes + this.doorkeeper.size;
  }
}

const cost = (key: string) => 2 * key.length + ENTRY_OVERHEAD;
