// An upload under way, as the bucket sees it: a marker written when it starts (prune leaves what it may rely on, and
// the next upload reuses the packs it sent) and a heartbeat rewritten while it runs (prune waits only for a fresh one).
import { randomBytes } from "node:crypto";
import { UPLOADS_PREFIX } from "../worker/r2-layout.ts";
import type { UploadTarget } from "./target.ts";

/** An upload rewrites its heartbeat (uploads/<token>.alive) this often while it runs. */
export const HEARTBEAT_MS = 60 * 1000;
/** An object under uploads/ younger than this keeps prune from deleting anything (an upload may rely on what it
 *  found): a running upload's heartbeat always is; a killed or failed upload's marker stops being so after this. */
export const UPLOAD_FRESH_MS = 5 * 60 * 1000;
/** An upload's marker and heartbeat: uploads/<ms>-<hex>.json (written once, at the start: its time is when the
 *  upload began) and uploads/<ms>-<hex>.alive (rewritten every HEARTBEAT_MS). */
export const markerKey = (token: string) => `${UPLOADS_PREFIX}${token}.json`;
export const heartbeatKey = (token: string) => `${UPLOADS_PREFIX}${token}.alive`;

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

export interface UploadMarker {
  /** the marker's key: another upload's packs are the ones sent since a marker other than this one */
  key: string;
  /** Stops the heartbeat. Done: the marker and heartbeat go (the live build names every pack sent). Failed: the marker
   *  stays, so the next upload reads the packs sent since it began and sends none of them again; prune removes it
   *  once it is no longer fresh. */
  stop(done: boolean): Promise<void>;
}

export async function startMarker(
  target: UploadTarget,
  root: string,
  heartbeatMs = HEARTBEAT_MS,
): Promise<UploadMarker> {
  const token = `${Date.now()}-${randomBytes(4).toString("hex")}`;
  const key = markerKey(token);
  await target.put([{ key, body: json({ dist: root, startedAt: new Date().toISOString() }) }]);
  // A failed beat is the next one's to mend.
  let beat: Promise<void> = Promise.resolve();
  const heartbeat = setInterval(() => {
    beat = target.put([{ key: heartbeatKey(token), body: json({ at: new Date().toISOString() }) }]).catch(() => {});
  }, heartbeatMs);
  heartbeat.unref();
  return {
    key,
    async stop(done) {
      clearInterval(heartbeat);
      if (!done) return;
      await beat;
      await target.delete([key, heartbeatKey(token)]).catch(() => {});
    },
  };
}
