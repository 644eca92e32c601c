// One build at a time per output: a lock file in the store, created exclusively, holding the builder's pid.
// A lock whose builder is gone (a killed build, even if its pid was reused since) is taken over; a live one is
// waited for, or refused.
// Synchronous file calls, as everywhere on a build's path (small-files.ts says why); only the waiting is asynchronous.
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../cli/command.ts";
import { isoTime } from "./iso-time.ts";
import { isAlive, startedAt, startTicks } from "./processes.ts";

export const LOCK_FILE = "lock";

interface LockInfo {
  pid: number;
  started: string;
  /** the holder's start in clock ticks after boot (Linux): with the pid, it names that very process */
  startTicks?: number;
}

export interface LockOptions {
  /** wait for a running build to finish (default), or refuse at once */
  wait: boolean;
  /** told once, when a running build makes this one wait */
  onWait?: (line: string) => void;
  /** how the output is named in messages */
  outName: string;
}

const POLL_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A lock file still empty after this long was left by a build killed between creating and filling it. */
const EMPTY_LOCK_STALE_MS = 5_000;

/**
 * Whether the build that wrote the lock still runs: its pid is alive and is that very process — the same start
 * (/proc), or else one started before the lock was written. A killed build's pid may belong to another process since.
 */
function holderRuns(held: LockInfo): boolean {
  if (!isAlive(held.pid)) return false;
  const ticks = startTicks(held.pid);
  if (held.startTicks !== undefined && ticks !== undefined) return ticks === held.startTicks;
  const started = startedAt(held.pid);
  const locked = Date.parse(held.started);
  return started === undefined || Number.isNaN(locked) || started <= locked + 2_000;
}

function readLock(path: string): LockInfo | "empty" | "gone" {
  try {
    const text = readFileSync(path, "utf8");
    const info = JSON.parse(text) as LockInfo;
    return typeof info.pid === "number" ? info : "empty";
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : "empty";
  }
}

/** Takes the lock of `storeDir`; resolves to its release. */
export async function acquireLock(storeDir: string, options: LockOptions): Promise<() => void> {
  const path = join(storeDir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, started: isoTime(Date.now()), startTicks: startTicks(process.pid) };
  let told = false;
  for (;;) {
    try {
      writeFileSync(path, JSON.stringify(mine), { flag: "wx" });
      return () => releaseLock(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const held = readLock(path);
    if (held === "gone") continue;
    if (held === "empty") {
      let age = 0;
      quietly(() => (age = Date.now() - statSync(path).mtimeMs));
      if (age > EMPTY_LOCK_STALE_MS) takeOver(path, undefined);
      else await sleep(POLL_MS);
      continue;
    }
    if (!holderRuns(held)) {
      takeOver(path, held.pid);
      continue;
    }
    const line = `${options.outName} is being built by process ${held.pid} (since ${held.started})`;
    if (!options.wait) throw new UserError(`${line}; not waiting (--no-wait)`);
    if (!told) options.onWait?.(`${line}; waiting for it to finish…`);
    told = true;
    await sleep(POLL_MS);
  }
}

/** Moves a dead build's lock aside, checking it is still that one (another builder may have taken it over first). */
function takeOver(path: string, deadPid: number | undefined): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else moved it: try again from the top
  }
  const moved = readLock(aside);
  const stillDead = moved === "empty" || moved === "gone" || moved.pid === deadPid || !holderRuns(moved);
  // A live lock was moved by mistake: put it back unless a new one is there already.
  if (!stillDead) quietly(() => linkSync(aside, path));
  quietly(() => unlinkSync(aside));
}

function releaseLock(path: string): void {
  const held = readLock(path);
  if (typeof held === "object" && held.pid === process.pid) quietly(() => unlinkSync(path));
}

/** Runs `call`, ignoring its failure (a file someone else already moved or removed). */
function quietly(call: () => void): void {
  try {
    call();
  } catch {
    // nothing to undo
  }
}
