// Watches a content folder for edits: the folder itself (site.json) and its categories/ and tools/ folders, since
// fs.watch is not recursive on Linux under Node 20. Bursts of events (an editor's save) become one call.
import { createHash } from "node:crypto";
import { type FSWatcher, watch } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export const DEBOUNCE_MS = 100;
const WATCHED = [".", "categories", "tools"];

export interface ContentWatcher {
  close(): void;
}

export function watchContent(
  contentDir: string,
  onChange: (what: string) => void,
  debounceMs = DEBOUNCE_MS,
): ContentWatcher {
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let last = "";
  const changed = (what: string) => {
    last = what;
    clearTimeout(timer);
    timer = setTimeout(() => onChange(last), debounceMs);
  };
  // A folder created or replaced after the start (tools/ made by the first new:tool) is watched from then on.
  const watchAll = () => {
    for (const sub of WATCHED) {
      if (watchers.has(sub)) continue;
      try {
        const w = watch(join(contentDir, sub), (_event, name) => {
          if (sub === "." && (name === "categories" || name === "tools")) refresh(name);
          changed(name ? join(sub, String(name)) : sub);
        });
        w.on("error", () => refresh(sub));
        watchers.set(sub, w);
      } catch {
        // not there (yet): watched once the content folder shows it
      }
    }
  };
  const refresh = (sub: string) => {
    watchers.get(sub)?.close();
    watchers.delete(sub);
    watchAll();
  };
  watchAll();
  return {
    close() {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

/**
 * Watches some files of one folder (the CSV files of `npm run dev -- --csv`): a spreadsheet saves through temporary
 * files and lock files beside them, which are not edits. A burst of events is one call, as above.
 */
export function watchFiles(
  dir: string,
  names: readonly string[],
  onChange: (name: string) => void,
  debounceMs = DEBOUNCE_MS,
): ContentWatcher {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let closed = false;
  const start = () => {
    if (closed) return;
    watcher = watch(dir, (_event, name) => {
      // Some platforms name no file: then any of them may have changed.
      if (name !== null && !names.includes(String(name))) return;
      clearTimeout(timer);
      timer = setTimeout(() => onChange(name === null ? names.join(", ") : String(name)), debounceMs);
    });
    // The folder replaced (moved away and back): watched again where it now is.
    watcher.on("error", () => {
      watcher?.close();
      setTimeout(() => {
        try {
          start();
        } catch {
          // gone: nothing to watch until the next start
        }
      }, debounceMs);
    });
  };
  start();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

/**
 * The content a build reads, as one hash of its files' names and bytes: an edit that leaves it as it was (a save
 * without changes, an import's own writes already built, a bad edit undone) needs no build. The files are read
 * SIGNATURE_READS at a time (one after the other, 15,384 tools took 1.3 to 2 s of every edit in `npm run dev`).
 */
export async function contentSignature(contentDir: string): Promise<string> {
  const files = ["site.json"];
  for (const folder of ["categories", "tools"]) {
    const names = await readdir(join(contentDir, folder)).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith(".json")).sort()) files.push(`${folder}/${name}`);
  }
  const digests: string[] = new Array(files.length);
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const i = next++;
      digests[i] = await readFile(join(contentDir, files[i]!)).then(
        (bytes) => createHash("sha256").update(bytes).digest("hex"),
        () => "(unreadable)", // the build says why
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(SIGNATURE_READS, files.length) }, lane));
  const hash = createHash("sha256");
  for (const [i, file] of files.entries()) hash.update(`${file}\0${digests[i]}\0`);
  return hash.digest("hex");
}

/** Content files contentSignature reads at once. */
const SIGNATURE_READS = 32;
