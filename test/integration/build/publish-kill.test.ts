// B3: a build killed at any instant (SIGKILL, seeded points over a full and an incremental build of a
// 48-tool catalog, and incremental builds of its runs layout) leaves the previous tree published and
// byte-identical; the next build is correct and removes what the killed ones left behind.
import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, readlink, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { generateCatalog, writeCatalog } from "../../../scripts/content/generate.ts";
import { editJson, startBuild, storeEntries } from "../../helpers/build/publish.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree, stampTree } from "../../helpers/fs/tree.ts";
import { seeded } from "../../helpers/random/seeded.ts";

const ATTEMPTS_PER_PHASE = 10;
/** Builds long enough (thousands of files) to kill at many instants, short enough to do it twenty times. */
const TOOLS = 48;
/** Kill points fall in the first part of a measured build, so most land before publication however fast it is. */
const KILL_WINDOW = 0.9;
/** Each phase takes about 30 s on the shared 2-core machine with scratch folders in memory; on a loaded disk it took
 * several times that (190 s for the incremental phase at 200 tools): room for a slow machine. */
const KILL_PHASE_TIMEOUT_MS = 480_000;

/** The tree behind a link (the published build), stamped file by file: inode, mtime and size. */
const statTree = async (path: string) => stampTree(await realpath(path));

describe("a build killed at any instant", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let content: string;
  let out: string;
  const random = seeded(20261124);
  let killed = 0;
  /** wall time of the first (full) build */
  let fullSpan = 0;

  /** Wall time of one build from the command line, start-up included. */
  const timedBuild = async (root: string, args: string[] = []) => {
    const started = performance.now();
    const result = await startBuild(["--content", join(root, "content"), "--out", join(root, "dist"), ...args]).result;
    expect(result.code, result.stderr).toBe(0);
    return performance.now() - started;
  };

  /** How long the next `args` build takes, timed on a copy so the store under test stays as it is. */
  async function measuredSpan(args: string[]): Promise<number> {
    const copy = await tempDir("msapi-kill-span-");
    try {
      // Content, the link and the published generation: not trash a background rm may be deleting meanwhile.
      const published = await readlink(out);
      await mkdir(join(copy.path, "dist.builds"));
      execFileSync("cp", ["-a", content, out, copy.path]);
      execFileSync("cp", ["-a", join(`${out}.builds`, ".msapi-builds"), join(copy.path, "dist.builds")]);
      // Linked, not copied (half a gigabyte): a build never writes into a published file, it renames new ones in.
      execFileSync("cp", ["-al", join(dir.path, published), join(copy.path, "dist.builds")]);
      return await timedBuild(copy.path, args);
    } finally {
      await copy.remove();
    }
  }

  beforeAll(async () => {
    dir = await tempDir("msapi-kill-");
    content = join(dir.path, "content");
    out = join(dir.path, "dist");
    await writeCatalog(generateCatalog({ tools: TOOLS, categories: 2, seed: 11 }), content);
    fullSpan = await timedBuild(dir.path);
  });
  afterAll(() => dir.remove());

  /**
   * Starts `args` builds and kills each at a seeded instant of `span` (what one takes); the published tree must not
   * move. `edit(i)` changes the content before attempt i > 0, so a build that did publish leaves the next one work.
   */
  async function killRepeatedly(
    args: string[],
    span: number,
    edit?: (attempt: number) => Promise<void>,
  ): Promise<void> {
    let window = span * KILL_WINDOW;
    let link = await readlink(out);
    let expected = await statTree(out);
    for (let i = 0; i < ATTEMPTS_PER_PHASE; i++) {
      if (i > 0) await edit?.(i);
      const started = performance.now();
      const child = startBuild(["--content", content, "--out", out, ...args]);
      const timer = setTimeout(() => child.kill("SIGKILL"), Math.floor(random() * window));
      const result = await child.result;
      clearTimeout(timer);
      if (result.signal === "SIGKILL") killed++;
      else {
        expect(result.code, result.stderr).toBe(0);
        // Faster than measured (the machine got quieter): later points fall within this build's span.
        window = (performance.now() - started) * KILL_WINDOW;
      }
      const now = await readlink(out);
      if (now === link) continue;
      // It published before it was killed (or finished): the previous tree is still whole, untouched...
      expect(await statTree(join(dir.path, link))).toEqual(expected);
      // ...and the new one is the previous one from now on.
      link = now;
      expected = await statTree(out);
    }
    expect(await readlink(out)).toBe(link);
    expect(await statTree(out)).toEqual(expected);
  }

  /** The next build: the same tree as a full build of the same content made now, and nothing left behind. */
  async function nextBuildIsCorrect(layout: "pages" | "runs" = "pages"): Promise<void> {
    await build({ contentDir: content, outDir: out, layout });
    const fresh = await tempDir("msapi-kill-reference-");
    try {
      await build({ contentDir: content, outDir: join(fresh.path, "dist"), full: true, layout });
      const [got, want] = [await hashTree(out), await hashTree(join(fresh.path, "dist"))];
      const differing = [...new Set([...got.keys(), ...want.keys()])].filter((k) => got.get(k) !== want.get(k));
      expect(differing.slice(0, 10)).toEqual([]);
    } finally {
      await fresh.remove();
    }
    const entries = await storeEntries(out);
    expect(entries.filter((e) => !/^g\d{6}$/.test(e))).toEqual([]);
    expect(entries.length).toBeLessThanOrEqual(2);
    expect((await readdir(dir.path)).sort()).toEqual(["content", "dist", "dist.builds"]);
  }

  it(
    "during full builds",
    async () => {
      await killRepeatedly(["--full"], fullSpan);
      await nextBuildIsCorrect();
    },
    KILL_PHASE_TIMEOUT_MS,
  );

  /**
   * Before attempt i > 0 of an incremental phase: another tool inserted and a price changed, so a build that finished
   * or published before its kill (checked too) leaves the next attempt a whole insert to do, not an empty build.
   */
  async function insertAndPrice(attempt: number): Promise<void> {
    const tools = (await readdir(join(content, "tools"))).filter((t) => !t.startsWith("zz-")).sort();
    const middle = JSON.parse(await readFile(join(content, "tools", tools[TOOLS / 2]!), "utf8"));
    await editJson(join(content, "tools", tools[TOOLS / 4]!), (t) => {
      const plans = t.pricingPlans as { price: number | null }[];
      // a plan more (a tool holds at most 20), then its price changed
      if (plans.length < 12) plans.push({ ...plans[0], price: 12345 + attempt } as { price: number });
      else plans[plans.length - 1]!.price = 12345 + attempt;
    });
    const slug = `zz-kill-insert-${attempt}`;
    await writeFile(
      join(content, `tools/${slug}.json`),
      JSON.stringify({ ...middle, name: `${middle.name} Kill Insert ${attempt}`, slug }),
    );
  }

  it(
    "during incremental builds (a tool inserted mid-list and a price changed)",
    async () => {
      await insertAndPrice(0);
      await killRepeatedly([], await measuredSpan([]), insertAndPrice);
      await nextBuildIsCorrect();
      // 20 seeded points; most land before publication (the rest check a kill after it, or a finished build).
      expect(killed).toBeGreaterThanOrEqual(14);
    },
    KILL_PHASE_TIMEOUT_MS,
  );

  it(
    "during incremental builds of the runs layout (no page file; the catalog body's pieces read from the working copy)",
    async () => {
      // the layout changed: a full build, then the rebuilds under test
      await build({ contentDir: content, outDir: out, layout: "runs" });
      await insertAndPrice(100);
      await killRepeatedly(["--layout", "runs"], await measuredSpan(["--layout", "runs"]), (i) =>
        insertAndPrice(100 + i),
      );
      await nextBuildIsCorrect("runs");
    },
    KILL_PHASE_TIMEOUT_MS,
  );
});
