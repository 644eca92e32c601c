// The same catalog built with --layout runs beside a pages build: what a conformance host of layout `runs` serves
// (hosts.ts). Built by whoever builds the suite's dist/ (the conformance setup, encodings.test.ts), only when such a
// host is selected and available.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { build } from "../../../scripts/build.ts";
import { CANARY, CANARY_FILES } from "./canary.ts";
import { type Host, runsTwin } from "./hosts.ts";

/**
 * Builds the runs twin of `distDir` from `contentDir` (with the same --compress), with the canary dotfiles the pages
 * build was given, when one of `hosts` serves it; resolves with the seconds it took, or undefined when none needs it.
 */
export async function buildRunsTwin(
  hosts: readonly Host[],
  contentDir: string,
  distDir: string,
  { compress = false, canaries = false } = {},
): Promise<number | undefined> {
  if (!hosts.some((h) => h.layout === "runs" && h.unavailable() === undefined) || existsSync(runsTwin(distDir)))
    return undefined;
  const result = await build({ contentDir, outDir: runsTwin(distDir), layout: "runs", compress });
  if (canaries)
    for (const file of CANARY_FILES) {
      await mkdir(dirname(join(runsTwin(distDir), file)), { recursive: true });
      await writeFile(join(runsTwin(distDir), file), JSON.stringify({ canary: CANARY }));
    }
  return result.seconds;
}
