// Every shell command in README.md and docs/ works as written. Each is either run (in a scratch copy of the
// repository, in the order the docs give) or, when it cannot run here (a server that runs until stopped, a deploy
// that needs an account and network, a minutes-long run), checked: the npm script exists, every flag is one its
// --help lists, the npx package is installed, the file exists. Those are listed in command-checks.ts with the reason.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check, makeScratch, plan, prefetchHelp, runInScratch } from "../../helpers/docs/command-checks.ts";
import { type DocCommand, docCommands, inlineCommands } from "../../helpers/docs/shell-commands.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";

const DOC_FILES = ["README.md", ...fg.sync("docs/**/*.md", { cwd: repoRoot }).sort()];
const commands: DocCommand[] = DOC_FILES.flatMap((file) =>
  docCommands(file, readFileSync(join(repoRoot, file), "utf8")),
);
const inline: DocCommand[] = DOC_FILES.flatMap((file) =>
  inlineCommands(file, readFileSync(join(repoRoot, file), "utf8")),
);

let scratch: Awaited<ReturnType<typeof makeScratch>>;
beforeAll(async () => {
  [scratch] = await Promise.all([makeScratch(), prefetchHelp([...inline, ...commands])]);
}, 300_000);
afterAll(() => scratch?.remove());

describe("the README and docs/ commands", () => {
  it("every relative link points at a file that exists", () => {
    const broken: string[] = [];
    for (const file of DOC_FILES) {
      const text = readFileSync(join(repoRoot, file), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        if (!existsSync(join(repoRoot, dirname(file), target!))) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("finds the commands (the extraction works)", () => {
    expect(commands.some((c) => c.where.startsWith("README.md") && c.text === "npm start")).toBe(true);
    expect(commands.length).toBeGreaterThan(20);
  });

  // Each distinct command once, in the docs' order (a build before the validate that reads it).
  const distinct = commands.filter((c, i) => commands.findIndex((d) => d.text === c.text) === i);

  // Commands in prose are only checked: the script exists, its flags are real, the package is installed.
  const inlineDistinct = inline.filter(
    (c, i) => inline.findIndex((d) => d.text === c.text) === i && !distinct.some((d) => d.text === c.text),
  );
  it.each(inlineDistinct.map((c) => [`${c.where}: \`${c.text}\``, c] as const))(
    "%s (inline)",
    async (_, command) => {
      await check(command);
    },
    120_000,
  );

  it.each(distinct.map((c) => [`${c.where}: ${c.text}`, c] as const))(
    "%s",
    async (_, command) => {
      const decided = plan(command);
      await check(command);
      if (decided.run) await runInScratch(command, scratch.path);
    },
    300_000,
  );
});
