// vitest's sequencer for npm test: the longest files start first, whatever their project, so no long file starts
// late and runs alone at the end. vitest's own order puts projects one after another and, without its cache (a
// clean clone, as in CI), the largest files first: docs-commands.test.ts (110 s, a small file) started last and
// ran alone for its last minute and a half.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds each long file took in a full `npm test` on the shared 2-core machine (project:file), what orders a run
 * without vitest's cache. A file missing here counts as 0 s: after these, the largest first.
 */
const SECONDS: Record<string, number> = {
  "unit:test/docs/docs-commands.test.ts": 110,
  "unit:test/integration/hosts/cloudflare/upload-r2-kills.test.ts": 95,
  "unit:test/mirror/mirror.test.ts": 92,
  "unit:test/cli/flags.test.ts": 85,
  "unit:test/integration/hosts/cloudflare/upload-r2.test.ts": 84,
  "unit:test/docs/omit-dev-start.test.ts": 76,
  "unit:test/integration/build/csv-round-trip.test.ts": 74,
  "unit:test/integration/build/publish-kill.test.ts": 69,
  "unit:test/openapi/docs-page.test.ts": 66,
  "unit:test/docs/aligned-export.test.ts": 61,
  "unit:test/docs/deploy-recipes.test.ts": 59,
  "conformance:test/conformance/fuzz.test.ts": 52,
  "unit:test/integration/build/sample-catalog.test.ts": 47,
  "unit:test/cli/stop-commands.test.ts": 45,
  "unit:test/validate/outside-validators.test.ts": 40,
  "conformance:test/conformance/order.test.ts": 40,
  "unit:test/validate/validate-command.test.ts": 39,
  "unit:test/integration/hosts/node/hostile-input.test.ts": 38,
  "conformance:test/conformance/export-sync.test.ts": 37,
  "unit:test/integration/hosts/cloudflare/remote-r2.test.ts": 37,
  "conformance:test/conformance/paths.test.ts": 36,
  "unit:test/integration/cli/dev-commands.test.ts": 31,
  "conformance-r2:test/conformance/fuzz.test.ts": 30,
  "conformance:test/conformance/search.test.ts": 27,
  "unit:test/scaffold/new-content.test.ts": 26,
  "conformance:test/conformance/query.test.ts": 25,
  "unit:test/docs/export.test.ts": 23,
  "conformance:test/conformance/derived.test.ts": 23,
  "unit:test/docs/doc-facts.test.ts": 23,
  "unit:test/integration/io/incremental.test.ts": 22,
  "conformance:test/conformance/headers.test.ts": 21,
  "conformance:test/conformance/security.test.ts": 20,
  "unit:test/integration/build/content-cache.test.ts": 19,
  "unit:test/unit/hosts/cloudflare/r2-prune.test.ts": 19,
  "unit:test/openapi/typed-client.test.ts": 16,
  "unit:test/integration/build/publish-reader.test.ts": 15,
  "unit:test/integration/build/build-memory.test.ts": 15,
  "unit:test/openapi/prism-proxy.test.ts": 14,
};

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    // vitest's own key of a file in its cache
    const keyOf = (spec: TestSpecification) => `${spec.project.name}:${relative(config.root, spec.moduleId)}`;
    const order = new Map(
      files.map((spec) => {
        const key = keyOf(spec);
        const last = cache.getFileTestResults(key);
        return [
          spec,
          {
            // A file that failed last time first, then the longest by this machine's last run, else by the table.
            failed: last?.failed === true,
            seconds: last ? last.duration / 1000 : (SECONDS[key] ?? 0),
            size: cache.getFileStats(key)?.size ?? 0,
          },
        ];
      }),
    );
    return [...files].sort((a, b) => {
      const [x, y] = [order.get(a)!, order.get(b)!];
      return Number(y.failed) - Number(x.failed) || y.seconds - x.seconds || y.size - x.size;
    });
  }
}
