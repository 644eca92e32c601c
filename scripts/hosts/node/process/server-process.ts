// One server process of `npm run serve -- --workers N`: the same server as a single process, its port shared through
// node:cluster. It follows each publication itself (B5); its primary only starts, restarts and stops it.

import { startServer } from "../server/start-server.ts";
import {
  type FromServerProcess,
  SERVER_PROCESS_CONFIG_ENV,
  type ServerProcessConfig,
  type ToServerProcess,
} from "./messages.ts";

const send = (message: FromServerProcess) => process.send?.(message);
const config = JSON.parse(process.env[SERVER_PROCESS_CONFIG_ENV] ?? "null") as ServerProcessConfig | null;
if (!config || !process.send) throw new Error("server-process.ts runs only as a child of primary.ts");

// Ctrl-C reaches the whole process group: the primary stops every server process in order, so a server process waits to be told.
process.on("SIGINT", () => {});

// No top-level await: the process runs from a CommonJS bundle (bundle-cache.cjs), which esbuild cannot make of a
// module that has one; without a bundle it would run through tsx, whose loader costs each process its memory.
async function run(config: ServerProcessConfig, send: (message: FromServerProcess) => void): Promise<void> {
  try {
    const server = await startServer({ ...config, onSwitch: () => send({ type: "switched" }) });
    process.on("message", (message: ToServerProcess) => {
      if (message.type === "refresh") void server.reload();
      if (message.type === "stop") void server.close().then(() => process.exit(0));
    });
    // The primary is gone (killed, say): nobody will tell this server process to stop, so it stops now.
    process.once("disconnect", () => void server.close().then(() => process.exit(0)));
    send({ type: "listening", url: server.url, basePath: server.basePath });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const failed: FromServerProcess = { type: "failed", code: err.code, message: err.message };
    process.send?.(failed, () => process.exit(1));
  }
}

void run(config, send);
