// npm run test:quick: what a contributor runs before a commit, in under a minute. The unit tests (test/unit/: pure, no
// process, no port), and the HTTP conformance suite against the Node server on the tiny fixture. npm test (vitest.config.ts)
// is the whole suite CI runs: every host, the sample catalog, real builds killed and raced, outside validators.
import { defineConfig } from "vitest/config";
import { scratchInMemory } from "./test/setup/scratch-in-memory.ts";

scratchInMemory();

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: "quick", include: ["test/unit/**/*.test.ts"] } },
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
