// A command as its npm script runs it (`exec node scripts/launcher/launch.cjs scripts/<x>.ts`), without npm: from its
// cached bundle. Through tsx the same command cost ~1 s more CPU at each start-up (a loader round trip per module).
import { join } from "node:path";
import { repoRoot } from "../fs/dirs.ts";

/** Arguments for `process.execPath`: the launcher, the command's entry (from the repository root) and its own. */
export const launchArgs = (entry: string, ...args: string[]): string[] => [
  join(repoRoot, "scripts/launcher/launch.cjs"),
  join(repoRoot, entry),
  ...args,
];
