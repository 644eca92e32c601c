// For servers that cannot listen on port 0 themselves (nginx, child processes told PORT=…).
import { createServer } from "node:net";

/** A port nobody listens on right now (the OS picks it); the caller binds it a moment later. */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
