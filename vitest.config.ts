import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Builds of the sample catalog and real servers take seconds, not milliseconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/conformance/**"] } },
      // Only the conformance project pays for building the sample catalog and starting every host.
      { extends: true, test: { name: "conformance", include: ["test/conformance/**/*.test.ts"], globalSetup: ["test/setup/build-catalog.ts"] } },
    ],
  },
});
