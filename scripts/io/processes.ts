// What a build can tell about another process from its pid: the lock's holder, the rm deleting a trash folder.
import { readFileSync } from "node:fs";

/** Whether a process with this pid exists (one of another user's counts too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * When process `pid` started, in clock ticks after boot, where /proc tells; else undefined. With the pid, it names one
 * process: a pid reused by a later process has another start.
 */
export function startTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name "(…)": the 22nd field of the line.
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** When process `pid` started (ms since the epoch, to the second), where /proc tells; else undefined. */
export function startedAt(pid: number): number | undefined {
  try {
    const ticks = startTicks(pid);
    if (ticks === undefined) return undefined;
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    const at = (boot + ticks / 100) * 1000; // USER_HZ is 100 on Linux
    return Number.isFinite(at) ? at : undefined;
  } catch {
    return undefined;
  }
}
