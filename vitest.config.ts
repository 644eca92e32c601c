import { defineConfig } from "vitest/config";
import { LongFilesFirst } from "./test/setup/long-files-first.ts";
import { scratchInMemory } from "./test/setup/scratch-in-memory.ts";

scratchInMemory();

export default defineConfig({
  test: {
    // Builds of the sample catalog and real servers take seconds, not milliseconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Most test time is waiting on child processes, servers and the disk, not CPU: on a 2-core machine the
    // default (cores - 1 = one file at a time) left a core idle and took 15 minutes.
    maxWorkers: 3,
    // The longest files first, across projects: a long file started last runs alone at the end.
    sequence: { sequencer: LongFilesFirst },
    projects: [
      // The tiers: pure tests of one module; tests that build, start a process or a host; the HTTP suite per host.
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "integration", include: ["test/integration/**/*.test.ts"] } },
      // The benchmark's own code (its guard, targets, chart, catalogs and commands), tested beside it: not the product.
      { extends: true, test: { name: "bench", include: ["bench/test/**/*.test.ts"] } },
      // Only the conformance project pays for building the sample catalog and starting every host.
      {
        extends: true,
        test: {
          name: "conformance",
          include: ["test/conformance/**/*.test.ts"],
          globalSetup: ["test/setup/build-catalog.ts"],
        },
      },
      // The Cloudflare Worker over local R2, on the same catalog (its bucket filled once: lists as runs, no page bodies).
      {
        extends: true,
        test: {
          name: "conformance-r2",
          include: ["test/conformance/**/*.test.ts"],
          exclude: ["test/conformance/encodings.test.ts"],
          globalSetup: ["test/setup/build-r2-catalog.ts"],
          env: { CONFORMANCE_HOSTS: "cloudflare-r2" },
        },
      },
    ],
  },
});
