// A build of 100,000 tools keeps about 700 MB live, and V8 lets its heap grow to about twice what was live at its last
// full collection before it runs the next (on a machine with more than 16 GB it may reach 4 GB): such a build peaked
// past 1 GiB of RSS, most of it garbage. The writer calls collectIfGrown() between files: once the heap is past
// FLOOR and has grown by GROWTH over what was live after the last collection here, it collects now. Below FLOOR
// (every catalog under about 60,000 tools) it never does, so small builds pay nothing. A cap on the heap
// (--max-old-space-size) did the same for the large build but made V8 collect more often in every build, a
// one-price rebuild at 15,384 tools 12 % slower, and would have failed a catalog past its size.
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const FLOOR = 512 * 2 ** 20;
const GROWTH = 1.25;

let collect: (() => void) | null | undefined;
let baseline = FLOOR;

export function collectIfGrown(): void {
  if (getHeapStatistics().used_heap_size < baseline * GROWTH) return;
  collect ??= exposedGc();
  if (!collect) return;
  collect();
  baseline = Math.max(FLOOR, getHeapStatistics().used_heap_size);
}

/** V8's full collection as a function (what --expose-gc gives), made available now; null where it cannot be. */
function exposedGc(): (() => void) | null {
  try {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return null;
  }
}
