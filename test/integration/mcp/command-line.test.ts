// B6 for `npm run mcp`: --help, bad flags in one line (exit 2), a missing build in one line (exit 1), and nothing
// but protocol ever on standard output once it runs.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFromFlags } from "../../../scripts/mcp/server.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";
import { launchArgs } from "../../helpers/process/launch.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Run> {
  return new Promise((resolveRun) => {
    const child = execFile(
      process.execPath,
      launchArgs("scripts/commands/mcp.ts", ...args),
      { cwd: repoRoot, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolveRun({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe("npm run mcp on the command line", () => {
  it("--help, bad flags and a missing build each answer as a command should", async () => {
    const missing = join(repoRoot, "tmp/no-such-build");
    const [help, unknown, noBuild] = await Promise.all([
      run(["--help"]),
      run(["--port", "3"]),
      run(["--dist", missing]),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run --silent mcp -- \[options\]/);
    expect(help.stdout).toContain("--base-url URL");

    for (const [r, code, line] of [
      [unknown, 2, /^unknown option --port \(usage: .*--help lists them\)$/],
      [noBuild, 1, new RegExp(`^no build at ${missing}: run \`npm run build\` first$`)],
    ] as const) {
      expect(r.code, r.stderr).toBe(code);
      expect(r.stdout).toBe("");
      const lines = r.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("npm warn"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(line);
    }
  });

  it("refuses flags that contradict or name no API as bad usage (exit 2), before anything starts", async () => {
    await expect(sourceFromFlags({ dist: "dist", "base-url": "http://127.0.0.1:1/v1" })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^give --dist or --base-url, not both/),
    });
    for (const [url, why] of [
      ["ftp://example.com/v1", "is not an http or https URL"],
      ["example.com/v1", "is not a URL"],
      ["http://127.0.0.1/v1?x=1", "must not carry a query or fragment"],
    ]) {
      await expect(sourceFromFlags({ "base-url": url })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining(`--base-url ${url} ${why}`),
      });
    }
    // No request is made at start: an API that is down shows up as a failed tool call, not a dead server.
    await expect(sourceFromFlags({ "base-url": "http://127.0.0.1:1/v1/" })).resolves.toMatchObject({ remote: true });
  });
});
