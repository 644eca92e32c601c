// What the validation tests do to a build (a tampered page), and how they run what the docs promise to run over it.
import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { repoRoot } from "../fs/dirs.ts";

/** The tampered page of issue 14: out-of-range rating, negative total, limit above 100, a slug that is no slug. */
export async function tamperPage(path: string): Promise<void> {
  const body = JSON.parse(await readFile(path, "utf8"));
  body.data[0].rating = 7.77;
  body.data[0].slug = "NOT A SLUG";
  body.meta.total = -1;
  body.meta.limit = 500;
  await writeFile(path, JSON.stringify(body));
}

export const TAMPERED_PROBLEMS = [
  "/data/0/slug: must match pattern",
  "/data/0/rating: must be <= 5",
  "/meta/total: must be >= 0",
  "/meta/limit: must be <= 100",
];

export function run(argv: string[], cwd = repoRoot) {
  const result = spawnSync(argv[0]!, argv.slice(1), {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.replace(/^npm warn .*\n/gm, "") };
}
