// The conformance suite in R2 mode over a generated catalog of n tools (issue 40: at n = 1,000, where the tests'
// own runs use the sample): the catalog with the cases the suite's oracle needs (bench/workspace/edge-cases.ts),
// built, uploaded to local R2 and served by the Worker in workerd, by the suite's own set-up
// (test/setup/build-r2-catalog.ts). Minutes, not seconds: the hash tree's test fetches every body of the tree, so it
// runs here and not in npm test.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { generateCatalog, writeCatalog } from "../../scripts/content/generate.ts";
import { withEdgeCases } from "../workspace/edge-cases.ts";
import { OUT, ROOT } from "../workspace/out.ts";

export interface ConformanceResult {
  n: number;
  passed: number;
  failed: number;
  skipped: number;
  /** names of the failed tests (at most 20) */
  failures: string[];
  seconds: number;
}

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
}

export async function benchConformanceR2(n: number, log: (line: string) => void): Promise<ConformanceResult> {
  const content = join(OUT, `conformance-content-${n}`);
  const report = join(OUT, `conformance-${n}.json`);
  log(`conformance n=${n}: the suite in R2 mode over a generated catalog with the oracle's edge cases…`);
  await writeCatalog(withEdgeCases(generateCatalog({ tools: n, categories: 12, seed: 1 })), content);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "node_modules/vitest/vitest.mjs"),
      "run",
      "--project",
      "conformance-r2",
      "--testTimeout=300000",
      "--reporter=json",
      `--outputFile=${report}`,
    ],
    // CI=true: a host that cannot start is a failure here, not a skip.
    { cwd: ROOT, env: { ...process.env, CONFORMANCE_CONTENT: content, CI: "true" }, stdio: "ignore" },
  );
  await once(child, "exit");
  const seconds = (performance.now() - started) / 1000;
  try {
    const json = JSON.parse(await readFile(report, "utf8")) as VitestJson;
    const failures = json.testResults
      .flatMap((f) => f.assertionResults)
      .filter((a) => a.status === "failed")
      .map((a) => a.fullName);
    return {
      n,
      passed: json.numPassedTests,
      failed: json.numFailedTests,
      skipped: json.numPendingTests,
      failures: failures.slice(0, 20),
      seconds,
    };
  } catch (e) {
    // No report: the run itself failed (a set-up error); counted as one failure, named.
    return { n, passed: 0, failed: 1, skipped: 0, failures: [`no report: ${(e as Error).message}`], seconds };
  } finally {
    await rm(content, { recursive: true, force: true });
  }
}

export const conformanceReport = (r: ConformanceResult): string =>
  [
    `CONFORMANCE in R2 mode (n = ${r.n}, generated with the oracle's edge cases): ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped in ${r.seconds.toFixed(0)} s`,
    ...r.failures.map((f) => `  failed: ${f}`),
  ].join("\n");
