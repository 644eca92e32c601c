// Every entry the project runs from a cached CommonJS bundle can be bundled so. One that cannot (a top-level await,
// say) still runs, through tsx, so nothing else would notice: the server processes once ran that way for two rounds,
// each paying tsx's loader in memory and requests per second.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { SERVER_PROCESS_ENTRY } from "../../../scripts/hosts/node/process/server-process-bundle.ts";
import { PAGE_WRITER_THREAD } from "../../../scripts/io/page-writers.ts";
import { commandBundleOptions } from "../../../scripts/launcher/bundle-cache.cjs";
import { repoRoot } from "../../helpers/fs/dirs.ts";

/** The commands package.json starts through the launcher, and the scripts the project's own processes run. */
function bundledEntries(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const launched = Object.values(scripts).flatMap((line) => [...line.matchAll(/launch\.cjs (\S+)/g)].map((m) => m[1]!));
  return [...new Set([...launched, SERVER_PROCESS_ENTRY, PAGE_WRITER_THREAD])].sort();
}

describe("command bundles", () => {
  it("finds the launched commands and the processes' entries", () => {
    const entries = bundledEntries();
    expect(entries).toEqual(
      expect.arrayContaining(["scripts/commands/build.ts", "scripts/commands/serve.ts", SERVER_PROCESS_ENTRY]),
    );
  });

  it.each(bundledEntries())("%s bundles as CommonJS", async (entry) => {
    // esbuild's own errors (a top-level await is one) fail the build; the options write nothing to disk.
    const result = await build(commandBundleOptions(entry)).catch((e: { errors?: { text: string }[] }) => ({
      errors: e.errors ?? [{ text: String(e) }],
    }));
    expect(result.errors.map((e) => e.text)).toEqual([]);
  });
});
