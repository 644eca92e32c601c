// Worker thread: writes its share of the list pages and reports what it wrote, or the error with its code and path.
import { parentPort, workerData } from "node:worker_threads";
import { type PageJob, writePageUnits } from "./page-units.ts";

try {
  const stats = writePageUnits(workerData as PageJob, (written) => parentPort!.postMessage({ progress: written }));
  parentPort!.postMessage({ done: stats });
} catch (e) {
  const err = e as NodeJS.ErrnoException;
  parentPort!.postMessage({ failed: { message: err.message, code: err.code, path: err.path } });
}
