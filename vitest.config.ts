import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds of the sample catalog and real servers take seconds, not milliseconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
