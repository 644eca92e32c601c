// The output as a store of generations: `<out>` is a symbolic link to `<out>.builds/gNNNNNN/`, one complete tree.
// This module knows the layout: what may be built over (B1), which generations exist, publishing one (B2),
// and throwing away what is no longer needed without making the build wait for it.
// Synchronous file calls, as everywhere on a build's path (small-files.ts says why); whole trees are deleted by
// another process, or through the thread pool where there is no shell.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../cli/command.ts";
import { MANIFEST_FILE } from "./manifest.ts";
import { isAlive } from "./processes.ts";

/** The file that says a store folder is ours; it also keeps the last generation number, so none is reused. */
export const STORE_MARKER = ".msapi-builds";
/** child_process on first use: loading it adds to every build's start-up, and most rebuilds start no process. */
const childProcess = () => import("node:child_process");
const PROJECT_ROOT = resolve(fileURLToPath(new URL("../../", import.meta.url)));
const GENERATION = /^g(\d{6,})$/;

export interface Store {
  /** the published path: a symbolic link */
  out: string;
  /** `<out>.builds` */
  dir: string;
  /** what `out` is now: missing, our link, an empty folder, or a folder built by the previous design */
  outKind: "missing" | "link" | "empty-folder" | "legacy-folder";
  /** the generation `out` points to */
  published?: string;
}

export const generationName = (n: number) => `g${String(n).padStart(6, "0")}`;
export const workingName = () => `tmp-${process.pid}`;

// Synchronous: inspectOutput makes about ten of these calls three times a build, and through the thread pool each
// costs more than the call itself, a share a one-price rebuild notices.
const lstatOrNullSync = (path: string) => lstatSync(path, { throwIfNoEntry: false }) ?? null;
const realOrResolved = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};
const inside = (child: string, parent: string) => child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

/**
 * What `out` is, or a UserError naming why a build must not touch it (B1): only an empty or missing path, a link
 * into our own store, or a folder a build of the previous design made (it holds `.build-manifest.json`).
 */
export async function inspectOutput(outDir: string, contentDir: string): Promise<Store> {
  const out = resolve(outDir);
  const dir = `${out}.builds`;
  const refuse = (why: string) => new UserError(`refusing to build into ${outDir}: ${why}`);
  const stats = lstatOrNullSync(out);
  const outPath =
    stats && !stats.isSymbolicLink() ? realOrResolved(out) : resolve(realOrResolved(dirname(out)), basename(out));
  const content = realOrResolved(contentDir);
  const root = realOrResolved(PROJECT_ROOT);
  if (outPath === root) throw refuse("it is the project folder");
  if (inside(root, outPath)) throw refuse("it contains the project folder");
  if (outPath === content) throw refuse("it is the content folder");
  if (inside(content, outPath)) throw refuse(`it contains the content folder ${contentDir}`);
  if (inside(outPath, content)) throw refuse(`it is inside the content folder ${contentDir}`);

  const storeStats = lstatOrNullSync(dir);
  if (storeStats) {
    const marked = storeStats.isDirectory() && lstatOrNullSync(join(dir, STORE_MARKER))?.isFile();
    const empty = storeStats.isDirectory() && readdirSync(dir).length === 0;
    if (!marked && !empty) throw refuse(`${dir} exists and was not made by a build`);
  }

  if (!stats) return { out, dir, outKind: "missing" };
  if (stats.isSymbolicLink()) {
    const target = readlinkSync(out);
    const name = basename(target);
    if (resolve(dirname(out), target) !== join(dir, name) || !GENERATION.test(name))
      throw refuse(`it is a symbolic link that a build did not make (to ${target})`);
    return { out, dir, outKind: "link", published: name };
  }
  if (!stats.isDirectory()) throw refuse("it is a file, not a folder a build made");
  const entries = readdirSync(out);
  if (entries.length === 0) return { out, dir, outKind: "empty-folder" };
  if (entries.includes(MANIFEST_FILE) && lstatOrNullSync(join(out, MANIFEST_FILE))?.isFile())
    return { out, dir, outKind: "legacy-folder" };
  throw refuse(
    `the folder is not empty and no build made it (no ${basename(dir)}/ beside it); empty it or choose another folder`,
  );
}

/** Creates the store folder and its marker (the caller has checked it is ours or absent). */
export function openStore(store: Store): void {
  mkdirSync(store.dir, { recursive: true });
  if (!lstatOrNullSync(join(store.dir, STORE_MARKER))) writeMarker(store, 0);
}

function writeMarker(store: Store, last: number): void {
  const tmp = join(store.dir, `${STORE_MARKER}.tmp-${process.pid}`);
  writeFileSync(tmp, `${JSON.stringify({ builds: "msapi", lastGeneration: last })}\n`);
  renameSync(tmp, join(store.dir, STORE_MARKER));
}

/** Generation folders, newest first. */
export function listGenerations(store: Store): string[] {
  return readdirSync(store.dir)
    .filter((n) => GENERATION.test(n))
    .sort()
    .reverse();
}

/** The next generation number: past every folder and every number ever handed out. */
export function nextGeneration(store: Store): string {
  let marker = 0;
  try {
    const text = readFileSync(join(store.dir, STORE_MARKER), "utf8");
    marker = (JSON.parse(text) as { lastGeneration?: number }).lastGeneration ?? 0;
  } catch {
    // no marker, or an unreadable one: the folders alone say which numbers were used
  }
  const seen = listGenerations(store).map((n) => Number(GENERATION.exec(n)![1]));
  const next = Math.max(marker, ...seen) + 1;
  writeMarker(store, next);
  return generationName(next);
}

/**
 * Entries a build made and left behind (working folders, trash, temporary links, half-written store files such as
 * the marker or the content cache): only leftovers while we hold the lock.
 */
export function listLeftovers(store: Store): string[] {
  return readdirSync(store.dir).filter((n) => /^(tmp|trash|link)-|^lock\.stale-|^\..*\.tmp-\d+$/.test(n));
}

/**
 * Makes `generation` the published tree in one step: a new link renamed over `out`. A link inside the store is
 * renamed out of it (same file system), so a killed build leaves no stray link beside `out`.
 */
export function publish(store: Store, generation: string): void {
  const link = join(store.dir, `link-${process.pid}`);
  removeIfThere(link);
  symlinkSync(join(basename(store.dir), generation), link);
  if (store.outKind === "empty-folder") rmdirSync(store.out);
  if (store.outKind === "legacy-folder") {
    // The one case that cannot be one step: a folder cannot be replaced by a link. The old tree becomes a
    // generation of the store (removed by the next build) and the link follows at once.
    renameSync(store.out, join(store.dir, nextGeneration(store)));
  }
  renameSync(link, store.out);
  store.outKind = "link";
  store.published = generation;
}

/**
 * Throws folders away off the critical path: each is renamed into trash at once (so it is gone from where it was)
 * and deleted by an `rm -rf` child process. In the background mode (the build command) that process starts once the
 * build is published and may outlive it; a trash folder still there when the next build starts, with no rm on it,
 * is deleted by that build.
 */
export class Trash {
  private count = 0;
  private pending: Promise<void>[] = [];
  /** folders to delete in the background once the build is published, and the deleting processes already waiting */
  private readonly later: string[] = [];
  private readonly waiting: (() => void)[] = [];
  constructor(
    private readonly store: Store,
    private readonly background = false,
  ) {}

  async discard(path: string): Promise<void> {
    const name = basename(path);
    const isTrash = /^trash-/.test(name) && dirname(path) === this.store.dir;
    if (isTrash && name.endsWith(DELETING)) {
      // A marker goes once its folder is gone.
      if (!existsSync(path.slice(0, -DELETING.length))) removeIfThere(path);
      return;
    }
    // An earlier build's rm still deletes it: a second one in the background would only compete with it for the
    // disk (a build that waits for its deletions deletes it all the same).
    if (isTrash && this.background && stillDeleting(path)) return;
    // A dead rm's marker goes with its folder, whichever of the two the listing showed first.
    if (isTrash) removeIfThere(path + DELETING);
    const trashed = isTrash ? path : join(this.store.dir, `trash-${process.pid}-${++this.count}`);
    if (trashed !== path) {
      try {
        renameSync(path, trashed);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
        throw e;
      }
    }
    if (this.background) this.later.push(trashed);
    else this.pending.push(removeTree(trashed));
  }

  /**
   * In the background mode, starts the deleting processes of the folders discarded so far, each waiting for `empty`
   * to let it go. Starting a process takes the main thread tens of milliseconds: a build calls this while its page
   * writers work and it has nothing else to do.
   */
  async standby(): Promise<void> {
    for (const path of this.later.splice(0)) this.waiting.push(await removeInBackground(path, true));
  }

  /** Waits for every deletion started so far; in the background mode, lets them go or starts them (after publication). */
  async empty(): Promise<void> {
    // An rm beside the build's own writes competed with them for the disk: an insert took a fifth longer.
    for (const letGo of this.waiting.splice(0)) letGo();
    for (const path of this.later.splice(0)) await removeInBackground(path, false);
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
  }
}

/** Beside a trash folder: the pid of the `rm` deleting it, so that later builds leave the folder to it. */
const DELETING = ".deleting";

/**
 * The deleting shell writes its own pid beside the folder and removes that marker once the folder is gone, so a
 * marker never outlives its deletion (one written by the build after spawning it could land after the rm finished).
 * It deletes once its input ends: at once from /dev/null, or when a waiting one's pipe is closed.
 */
const DELETE_IN_BACKGROUND = `echo $$ > "$1${DELETING}" && { read -r _; rm -rf -- "$1"; }; rm -f -- "$1${DELETING}"`;

/** Starts the deleting shell: deleting at once, or, `waiting`, when the function returned is called or this process
 *  ends, whichever comes first (without `waiting`, that function does nothing). */
async function removeInBackground(path: string, waiting: boolean): Promise<() => void> {
  const { spawn } = await childProcess();
  const deleteHere = () => void removeHere(path);
  try {
    const child = spawn("sh", ["-c", DELETE_IN_BACKGROUND, "sh", path], {
      stdio: [waiting ? "pipe" : "ignore", "ignore", "ignore"],
      detached: true,
    });
    let failed = false;
    child.on("error", () => {
      failed = true;
      if (!waiting) deleteHere();
    });
    child.unref();
    const input = child.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null;
    if (!input) return () => undefined;
    input.on("error", () => undefined); // a shell already gone has nothing to be told
    // The pipe never keeps this process alive: at its exit the pipe closes and the shell deletes all the same.
    input.unref?.();
    return () => (failed ? deleteHere() : void input.end());
  } catch {
    // no shell: the next build deletes the trash folder
    return () => undefined;
  }
}

/** Whether the `rm` an earlier build started on `path` still runs. On Linux it must be that very process (a pid is reused). */
function stillDeleting(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path + DELETING, "utf8"));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (existsSync("/proc/self")) {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(path);
    } catch {
      return false;
    }
  }
  return isAlive(pid);
}

async function removeTree(path: string): Promise<void> {
  const { spawn } = await childProcess();
  return new Promise((done) => {
    const child = spawn("rm", ["-rf", "--", path], { stdio: "ignore" });
    // No rm (Windows) or it failed: the same work in this process.
    const fallback = () => removeHere(path).then(done);
    child.on("error", fallback);
    child.on("exit", (code) => (code === 0 ? done() : fallback()));
  });
}

/** A hard-link copy of a tree: `cp -al` where there is one, else a walk. Files are shared, folders are new. */
export async function cloneByLinks(from: string, to: string): Promise<void> {
  const { spawn } = await childProcess();
  const ok = await new Promise<boolean>((done) => {
    const child = spawn("cp", ["-al", "--", from, to], { stdio: "ignore" });
    child.on("error", () => done(false));
    child.on("exit", (code) => done(code === 0));
  });
  if (ok) return;
  await removeHere(to);
  await linkWalk(from, to);
}

/** Removes a file or link if there is one (unlink: fs.rmSync loads a module of its own for trees). */
function removeIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/** Deletes a whole tree in this process, through the thread pool (no shell or no `rm`); never fails. */
async function removeHere(path: string): Promise<void> {
  const { rm } = await import("node:fs/promises");
  await rm(path, { recursive: true, force: true }).catch(() => undefined);
}

async function linkWalk(from: string, to: string): Promise<void> {
  const { link, mkdir, readdir } = await import("node:fs/promises");
  await mkdir(to);
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const [a, b] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory()) await linkWalk(a, b);
    else await link(a, b);
  }
}
