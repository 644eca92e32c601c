// npm run test:quick: what a contributor runs before a commit, in under a minute. The unit tests that run in this
// process, and the HTTP conformance suite against the Node server on the tiny fixture. npm test (vitest.config.ts)
// is the whole suite CI runs: every host, the sample catalog, real builds killed and raced, outside validators.
import { defineConfig } from "vitest/config";
import { scratchInMemory } from "./test/setup/scratch-in-memory.ts";

scratchInMemory();

/** Unit tests that start other programs (workerd, nginx, serve, whole commands) or wait on the clock: left to npm test. */
const SLOW = [
  "test/unit/hosts/cloudflare/r2-*.test.ts",
  "test/unit/hosts/nginx/rejected.test.ts",
  "test/unit/hosts/static/serve-json.test.ts",
  "test/unit/hosts/node/serve-cli.test.ts",
  "test/unit/cli/dev-commands.test.ts",
  "test/unit/cli/launch.test.ts",
  "test/unit/bench/chart-svg.test.ts",
  // real builds that wait two seconds each for an edited file's signature to settle
  "test/unit/io/incremental.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: "quick", include: ["test/unit/**/*.test.ts"], exclude: SLOW } },
      {
        extends: true,
        test: {
          name: "quick-conformance",
          include: ["test/conformance/**/*.test.ts"],
          globalSetup: ["test/setup/build-quick-catalog.ts"],
          env: { CONFORMANCE_HOSTS: "node" },
        },
      },
    ],
  },
});
