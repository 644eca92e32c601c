// Peak resident memory of a host under load: the sum over every process of its process group (nginx's master and
// workers, or the Node server and its wrapper), sampled every 200 ms from /proc (Linux; null elsewhere).
import { readdir, readFile } from "node:fs/promises";

const SAMPLE_MS = 200;

/** RSS bytes of every process whose process group is `pgid`, summed. */
async function groupRss(pgid: number): Promise<number | null> {
  let total = 0;
  let found = false;
  const pids = await readdir("/proc").catch(() => null);
  if (!pids) return null;
  await Promise.all(
    pids
      .filter((p) => /^\d+$/.test(p))
      .map(async (pid) => {
        const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
        // fields after the command name (which may hold spaces): state ppid pgrp …
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[2]) !== pgid) return;
        const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
        const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
        if (Number.isFinite(kb)) {
          total += kb * 1024;
          found = true;
        }
      }),
  );
  return found ? total : null;
}

/** Samples until stopped; resolves with the peak, or null where /proc cannot tell. */
export function sampleRss(pgid: number): { stop(): Promise<number | null> } {
  let peak: number | null = null;
  let running = true;
  const loop = (async () => {
    while (running) {
      const now = await groupRss(pgid);
      if (now !== null) peak = Math.max(peak ?? 0, now);
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}
