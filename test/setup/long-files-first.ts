// vitest's sequencer for npm test: the longest files start first, whatever their project, so no long file starts
// late and runs alone at the end. vitest's own order puts projects one after another and, without its cache (a
// clean clone, as in CI), the largest files first: docs-commands.test.ts (110 s, a small file) started last and
// ran alone for its last minute and a half.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds each long file takes run alone (`npx vitest run FILE`) on the shared 2-core machine, by project:file: what
 * orders a run without vitest's cache. A file missing here counts as 0 s: after these, the largest first.
 */
const SECONDS: Record<string, number> = {
  "integration:test/integration/docs/docs-commands.test.ts": 80,
  "integration:test/integration/docs/omit-dev-start.test.ts": 50,
  "integration:test/integration/io/publish-kill.test.ts": 50,
  "integration:test/integration/hosts/cloudflare/r2/upload-kills.test.ts": 42,
  "integration:test/integration/render/docs-page.test.ts": 41,
  "integration:test/integration/content/csv-round-trip.test.ts": 40,
  "integration:test/integration/hosts/cloudflare/r2/upload.test.ts": 37,
  "integration:test/integration/mirror/mirror.test.ts": 33,
  "integration:test/integration/hosts/cloudflare/r2/remote-faults.test.ts": 24,
  "integration:test/integration/docs/deploy-recipes.test.ts": 22,
  "conformance:test/conformance/fuzz.test.ts": 20,
  "conformance:test/conformance/runs-pages.test.ts": 18,
  "integration:test/integration/check-dist/outside-validators.test.ts": 20,
  "integration:test/integration/cli/flags.test.ts": 19,
  "integration:test/integration/hosts/cloudflare/r2/remote.test.ts": 19,
  "integration:test/integration/cli/stop-commands.test.ts": 19,
  "integration:test/integration/content/content-cache.test.ts": 18,
  "integration:test/integration/hosts/static/static-copy-aligned.test.ts": 17,
  "integration:test/integration/hosts/node/hostile-input.test.ts": 15,
  "integration:test/integration/content/libreoffice-round-trip.test.ts": 15,
  "integration:test/integration/io/incremental.test.ts": 15,
  "conformance:test/conformance/export-sync.test.ts": 14,
  "conformance:test/conformance/paths.test.ts": 12,
  "conformance:test/conformance/mcp.test.ts": 12,
  "integration:test/integration/hosts/cloudflare/r2/prune.test.ts": 12,
  "integration:test/integration/render/typed-client.test.ts": 12,
  "integration:test/integration/check-dist/validate-command.test.ts": 12,
  "integration:test/integration/cli/dev-commands.test.ts": 11,
  "integration:test/integration/scaffold/new-content.test.ts": 10,
  "integration:test/integration/cli/quiet-output.test.ts": 10,
  "integration:test/integration/hosts/static/static-copy.test.ts": 10,
  "integration:test/integration/docs/doc-facts.test.ts": 10,
  "conformance:test/conformance/order.test.ts": 10,
  "conformance-r2:test/conformance/fuzz.test.ts": 10,
  "integration:test/integration/build/sample-catalog.test.ts": 14,
  "integration:test/integration/hosts/nginx/hostile-input.test.ts": 9,
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
