// Worker thread: waits for its share of the list pages (it may be started before the job is known), writes it, and
// reports what it wrote, or the error with its code and path.
import { parentPort } from "node:worker_threads";
import { type PageJob, writePageUnits } from "./page-units.ts";

parentPort!.once("message", (job: PageJob) => {
  try {
    const stats = writePageUnits(job, (written) => parentPort!.postMessage({ progress: written }));
    parentPort!.postMessage({ done: stats });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    parentPort!.postMessage({ failed: { message: err.message, code: err.code, path: err.path } });
  }
});
