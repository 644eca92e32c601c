// B5: the server follows what `npm run build` publishes. dist/ is a symbolic link to one complete generation folder,
// switched in one rename; the server resolves it to that real folder and serves only from there. When the link
// changes, a handler for the new folder is loaded whole (route table, error bodies) and swapped in: every cached body,
// ETag, miss and resolution of the old build goes with the old handler, never mixed with the new one.
// A plain folder (no symlink) is served as it is: changes made inside it in place cannot be followed atomically.
// Either layout is followed (L2): a switch between a pages build and a runs build is a switch like any other, since
// a handler's index, files and runs are all its own generation's.
import { type FSWatcher, watch } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { UserError } from "../../../cli/command.ts";
import { type ApiHandler, createApiHandler, type HandlerOptions } from "./api-handler.ts";

/** The fallback check of the link (two syscalls), for file systems where watching misses an event. */
export const RECHECK_MS = 300;

export interface FollowedDist {
  /** the handler of the build published now (synchronous: the hot path) */
  current(): ApiHandler;
  /**
   * Looks at the link now, swapping in a new handler when it points elsewhere (or, with `force`, always: for
   * callers that just rebuilt a plain folder in place). Resolves with a look started after the call; concurrent calls
   * share one look.
   */
  refresh(force?: boolean): Promise<ApiHandler>;
  close(): void;
}

/** What identifies one publication: the real folder, and its inode (a folder replaced by rename is another one). */
async function identify(distDir: string): Promise<{ root: string; id: string }> {
  const root = await realpath(distDir);
  const s = await stat(root);
  return { root, id: `${root}\0${s.dev}:${s.ino}` };
}

/** `onSwitch` is told each time a new build starts being served (a cluster's other workers then look at once). */
export async function followDist(
  distDir: string,
  options: Omit<HandlerOptions, "current"> = {},
  onSwitch?: () => void,
): Promise<FollowedDist> {
  const load = async (root: string) => createApiHandler(root, { ...options, current: () => refresh() });
  let published = await identify(distDir).catch(() => ({ root: distDir, id: "" }));
  let handler = await load(published.root);
  let looking: Promise<ApiHandler> | undefined;
  let queued: Promise<ApiHandler> | undefined;
  let forceNext = false;
  let closed = false;
  let refused: string | undefined;

  async function look(): Promise<ApiHandler> {
    const force = forceNext;
    forceNext = false;
    let now: { root: string; id: string };
    try {
      now = await identify(distDir);
    } catch {
      return handler; // the link is being replaced this very instant, or dist/ is gone: keep serving what we have
    }
    if (now.id === published.id && !force) return handler;
    try {
      const next = await load(now.root);
      if (!closed) {
        handler = next;
        published = now;
        onSwitch?.();
      }
    } catch (e) {
      // an incomplete folder (a plain dist/ being rewritten in place), or a build of another version (said once):
      // keep the last good build, look again later
      if (e instanceof UserError && refused !== now.id) {
        refused = now.id;
        console.error(`${e.message}; still serving the build before it`);
      }
    }
    return handler;
  }

  function refresh(force = false): Promise<ApiHandler> {
    if (force) forceNext = true;
    if (!looking) {
      looking = look().finally(() => (looking = undefined));
      return looking;
    }
    // The look under way may have read the link before this call (a publication in between would go unseen):
    // every call made meanwhile shares one more look, started once that one ends.
    queued ??= looking.then(() => {
      queued = undefined;
      return refresh();
    });
    return queued;
  }

  // The link lives in dist/'s parent folder: a rename over it is an event there, named after the link.
  const name = basename(distDir);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(distDir), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) void refresh();
    });
    watcher.on("error", () => watcher?.close());
  } catch {
    // no watching here (e.g. too many watches): the interval below still notices within RECHECK_MS
  }
  const timer = setInterval(() => void refresh(), RECHECK_MS);
  timer.unref();

  return {
    current: () => handler,
    refresh,
    close() {
      closed = true;
      watcher?.close();
      clearInterval(timer);
    },
  };
}
