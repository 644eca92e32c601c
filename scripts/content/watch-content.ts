// Watches a content folder for edits: the folder itself (site.json) and its categories/ and tools/ folders, since
// fs.watch is not recursive on Linux under Node 20. Bursts of events (an editor's save) become one call.
import { type FSWatcher, watch } from "node:fs";
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
