// The servers the serve step compares, each started as its own process on a free 127.0.0.1 port.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_SERVER_PROCESSES } from "../../scripts/hosts/node/process/primary.ts";
import { startPlainNginx } from "./plain-nginx.ts";
import { freePort, type HostProcess, startHostProcess } from "./process.ts";
import { workerStorageArgs } from "./worker-storage.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const require = createRequire(import.meta.url);

export interface Host {
  name: string;
  /** router: asked the API URLs, answers through the route table; static: asked for the dist/ files by their
   *  paths; ceiling: one fixed body for everything */
  kind: "router" | "static" | "ceiling";
  /** also measured on the cold set (every URL of the build, uniformly at random): the hosts users deploy. A Worker
   *  host added here with `cold: true` (asked the API URLs, kind "router") joins that table as it is. */
  cold?: boolean;
  /** why it cannot run here, or null */
  unavailable(): string | null;
  start(distDir: string, ceilingBody: string): Promise<HostProcess>;
}

const tsx = (script: string, ...args: string[]): [string, string[]] => [
  process.execPath,
  ["--import", "tsx", join(ROOT, script), ...args],
];
/** As `npm run serve` starts the Node server: from its cached bundle (scripts/launcher/launch.cjs). */
const launched = (script: string, ...args: string[]): [string, string[]] => [
  process.execPath,
  [join(ROOT, "scripts/launcher/launch.cjs"), join(ROOT, script), ...args],
];

const nginxMissing = () => (spawnSync("nginx", ["-v"]).error ? "nginx is not installed" : null);

/** Processes of the Node server (`npm run serve`'s default here) and, to compare like with like, of the ceiling. */
export const NODE_WORKERS = DEFAULT_SERVER_PROCESSES;

export const HOSTS: Host[] = [
  {
    name: "node server",
    kind: "router",
    cold: true,
    unavailable: () => null,
    start: async (dist) =>
      startHostProcess(
        ...launched("scripts/commands/serve.ts", "--dist", dist, "--workers", String(NODE_WORKERS)),
        await freePort(),
        { HOST: "127.0.0.1" },
      ),
  },
  {
    name: "npx serve",
    kind: "router",
    unavailable: () => null,
    start: async (dist) => {
      const bin = join(dirname(require.resolve("serve/package.json")), "build/main.js");
      const port = await freePort();
      // NO_UPDATE_CHECK: serve would otherwise ask the npm registry before listening.
      return startHostProcess(
        process.execPath,
        [bin, dist, "-l", `tcp://127.0.0.1:${port}`, "--no-clipboard", "-L"],
        port,
        { NO_UPDATE_CHECK: "1" },
      );
    },
  },
  {
    name: "raw node:http",
    kind: "ceiling",
    unavailable: () => null,
    start: async (_dist, body) =>
      startHostProcess(...tsx("bench/hosts/ceiling-server.ts", body), await freePort(), {
        WORKERS: String(NODE_WORKERS),
      }),
  },
  {
    name: "nginx generated",
    kind: "router",
    cold: true,
    unavailable: () =>
      nginxMissing() ??
      (existsSync(join(ROOT, "scripts/commands/start-nginx.ts"))
        ? null
        : "scripts/commands/start-nginx.ts does not exist yet"),
    start: async (dist) =>
      startHostProcess(...tsx("scripts/commands/start-nginx.ts", "--dist", dist), await freePort()),
  },
  {
    // the generated Worker in workerd (Miniflare): Static Assets, or past their limits the r2 step's bucket (worker-storage.ts)
    name: "cloudflare worker",
    kind: "router",
    cold: true,
    unavailable: () => null,
    start: async (dist) =>
      startHostProcess(
        ...tsx("scripts/commands/start-cloudflare.ts", "--dist", dist, ...(await workerStorageArgs(dist))),
        await freePort(),
        { WRANGLER_SEND_METRICS: "false" },
      ),
  },
  {
    name: "nginx plain",
    kind: "static",
    unavailable: nginxMissing,
    start: async (dist) => startPlainNginx(dist, await freePort()),
  },
];
