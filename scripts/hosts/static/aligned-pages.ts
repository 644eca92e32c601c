// Aligned pages for file hosts: of a list's pages, only those a client walks, at a few page sizes. A build holds every
// limit from 1 to 100 at every offset (the contract's queries), which on a file host, where queries are ignored and
// clients fetch file paths, is tens of thousands of files no client asks for. Here a page is kept when its limit is
// one of the chosen ones and its offset a multiple of it: 0, 20, 40… for limit 20.
import { alignedLimitsFile } from "../../api/runtime/route-table.ts";

export { alignedLimitsFile };

import { UserError } from "../../cli/command.ts";

/** The contract's default limit (20) and its largest (100): the page a bare request gets, and the fewest requests. */
export const DEFAULT_ALIGNED_LIMITS: readonly number[] = [20, 100];

export const alignedLimitsBody = (limits: readonly number[]) => `${JSON.stringify({ aligned: true, limits })}\n`;

/** "10,20,50,100" → [10, 20, 50, 100]; each 1 to 100. */
export function parseLimits(text: string): number[] {
  const parts = text.split(",").map((p) => p.trim());
  const limits = parts.map(Number);
  const bad = parts.find((p, i) => !/^[1-9][0-9]*$/.test(p) || limits[i]! > 100);
  if (bad !== undefined || parts.length === 0)
    throw new UserError(
      `--limits ${JSON.stringify(text)}: page sizes from 1 to 100, separated by commas (like 20,100)`,
      2,
    );
  return [...new Set(limits)].sort((a, b) => a - b);
}

/**
 * A predicate over paths of a build (relative, `/`-separated): false only for a list page that is not aligned to one
 * of `limits`. Every other body (tools, rankings, search, errors, the docs page) passes. `pageTemplate`: the build's
 * layout's list page (route-table.ts).
 */
export function alignedPageFilter(pageTemplate: string, limits: readonly number[]): (path: string) => boolean {
  const [prefix] = pageTemplate.split("{filter}");
  const page = /\/(\d+)\/(\d+)\.json$/;
  const kept = new Set(limits);
  return (path) => {
    if (!path.startsWith(prefix!)) return true;
    const m = page.exec(path);
    if (!m) return true;
    const limit = Number(m[1]);
    return kept.has(limit) && Number(m[2]) % limit === 0;
  };
}
