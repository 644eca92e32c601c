// One server process of `npm run serve -- --workers N`: the same server as a single process, its port shared through
// node:cluster. It follows each publication itself (B5); its primary only starts, restarts and stops it.

import { startServer } from "../server/start-server.ts";
import { type FromWorker, type ToWorker, WORKER_CONFIG_ENV, type WorkerConfig } from "./messages.ts";

const send = (message: FromWorker) => process.send?.(message);
const config = JSON.parse(process.env[WORKER_CONFIG_ENV] ?? "null") as WorkerConfig | null;
if (!config || !process.send) throw new Error("cluster-worker.ts runs only as a worker of cluster-primary.ts");

// Ctrl-C reaches the whole process group: the primary stops every worker in order, so a worker waits to be told.
process.on("SIGINT", () => {});

try {
  const server = await startServer({ ...config, onSwitch: () => send({ type: "switched" }) });
  process.on("message", (message: ToWorker) => {
    if (message.type === "refresh") void server.reload();
    if (message.type === "stop") void server.close().then(() => process.exit(0));
  });
  // The primary is gone (killed, say): nobody will tell this worker to stop, so it stops now.
  process.once("disconnect", () => void server.close().then(() => process.exit(0)));
  send({ type: "listening", url: server.url, basePath: server.basePath });
} catch (e) {
  const err = e as NodeJS.ErrnoException;
  const failed: FromWorker = { type: "failed", code: err.code, message: err.message };
  process.send(failed, () => process.exit(1));
}
