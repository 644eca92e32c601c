// Worker thread: writes its share of the list pages and reports what it wrote.
import { parentPort, workerData } from "node:worker_threads";
import { writePageUnits, type PageJob } from "./page-units.ts";

const stats = writePageUnits(workerData as PageJob, (written) => parentPort!.postMessage({ progress: written }));
parentPort!.postMessage({ done: stats });
