// `npx redocly lint` on the built description, with the repository's redocly.yaml (recommended rules): no error.
// Runs offline: telemetry and the update check are switched off, and the description has no external $ref.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/fs/dirs.ts";
import { buildOpenapiSite, type OpenapiSite } from "../../helpers/openapi/openapi-site.ts";

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe("redocly lint of the built openapi.json", () => {
  let site: OpenapiSite;
  beforeAll(async () => {
    site = await buildOpenapiSite();
  });
  afterAll(() => site?.remove());

  it("P8 the description lints with no error under the recommended rules (warnings listed)", async () => {
    const bin = join(repoRoot, "node_modules/.bin/redocly");
    const args = ["lint", site.openapiPath, "--config", join(repoRoot, "redocly.yaml"), "--format=json"];
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
    // Exit code 1 means errors were found; the JSON report is on stdout either way.
    const { stdout } = await promisify(execFile)(bin, args, { env, timeout: 60_000, maxBuffer: 16 << 20 }).catch(
      (e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }),
    );
    const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as LintReport;
    const listed = report.problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`,
    );
    if (report.totals.warnings > 0) console.log(`redocly lint warnings:\n${listed.join("\n")}`);
    expect(listed.filter((l) => l.startsWith("error"))).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });
});
