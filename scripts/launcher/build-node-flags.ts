// Node's own flags for the build, its environment, and the command line they go on, wherever the build runs in a
// process of its own: `npm run build` (package.json, which a test holds to these lists), `npm start` and the benchmark.
//
// A young generation of 8 MiB (Node 20's default grows it to 16 MiB, 32 on Node 24): nearly everything a build
// allocates stays live until it ends (the catalog as read and as derived, the records), so a larger one only copies
// it once more and touches more fresh memory. A smaller one (1 MiB, the flag before) scavenges so often that the
// scavenges' fixed cost (the roots, the old generation's pointers into the young one) grows with the heap: at 15,384
// tools a one-price rebuild spent ~0.7 s of ~2 s in 450 scavenges; at 8 MiB, ~0.15 s less a rebuild, the same at
// 1,000 tools, and a full build's peak RSS a few per cent higher (figures: docs/develop/builds.md).
//
// An old generation first allowed 256 MiB before its first full collection (Node's first limit is a few MiB, then
// raised step by step, a mark-compact at each step while the catalog is read in): alternating, a one-price rebuild
// at 15,384 tools took 1.04 s against 1.13 s and 1.35 s of CPU against 1.49, its peak RSS 224 MiB against 196; a
// full build of 103,528 tools 14.3 s of CPU against 16.0 and 942 MiB against 974; a full build of the n = 1,000 page
// tree peaked at 102 MiB against 103 (it collects itself while it writes, scripts/io/heap-growth.ts).
import { fileURLToPath } from "node:url";

export const BUILD_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=8", "--initial-old-space-size=256"];

/**
 * Variables the build starts without. Node 20 reads and parses the certificates NODE_EXTRA_CA_CERTS names at every
 * start, before any code runs (a share a small rebuild notices, with Debian's bundle; Node 22 and later wait
 * until TLS needs them), and a build opens no TLS connection.
 */
export const BUILD_ENV_UNSET: readonly string[] = ["NODE_EXTRA_CA_CERTS"];

/** `env` without BUILD_ENV_UNSET: the environment of a build in a process of its own. */
export function buildProcessEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of BUILD_ENV_UNSET) delete out[name];
  return out;
}

const LAUNCHER = fileURLToPath(new URL("./launch.cjs", import.meta.url));
const BUILD = fileURLToPath(new URL("../commands/build.ts", import.meta.url));

/** Arguments for `process.execPath` that run the build as `npm run build` does (its cached bundle, its flags). */
export const buildProcessArgs = (...args: string[]): string[] => [...BUILD_NODE_FLAGS, LAUNCHER, BUILD, ...args];
