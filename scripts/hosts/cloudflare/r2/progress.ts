// What a long R2 upload shows as it goes (upload:r2, start:cloudflare --r2): on a terminal a bar redrawn in place, at
// most 4 times a second; otherwise (a CI log) one line every few seconds. On stderr, so --json output stays one object.
import { formatCount } from "../../../cli/command.ts";
import type { Progress } from "./upload.ts";

const BAR = 24;
const LINE_EVERY_MS = 5000;

export function progressLine(p: Progress): string {
  const mb = (p.sentBytes / 1e6).toFixed(1);
  return `R2: ${p.phase}: ${formatCount(p.bodies)}/${formatCount(p.total)} new bodies packed, ${formatCount(p.packs)} packs sent, ${mb} MB sent`;
}

/** onProgress for uploadToR2, and `done()` to clear the bar. */
export function progressPrinter(out: NodeJS.WriteStream = process.stderr, tty = out.isTTY === true) {
  let shown = 0;
  let drawn = false;
  return {
    onProgress(p: Progress) {
      const now = Date.now();
      if (now - shown < (tty ? 250 : LINE_EVERY_MS)) return;
      shown = now;
      if (!tty) {
        out.write(`${progressLine(p)}\n`);
        return;
      }
      const filled = p.total === 0 ? 0 : Math.round((BAR * p.bodies) / p.total);
      out.write(`\r\x1b[K[${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${progressLine(p)}`);
      drawn = true;
    },
    done() {
      if (drawn) out.write("\r\x1b[K");
    },
  };
}
