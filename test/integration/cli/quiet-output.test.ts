// What a new user sees: `npm start` on a copy of the sample prints at most five lines of its own before the server's
// address; the next build counts the warnings it printed already in one line; a warning about a file changed since
// the last build comes first and whole; `npm run dev` on the same build starts as quietly. The commands run as their
// npm scripts run them (the launcher and its bundle), on port 0.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, sampleContent, tempDir } from "../../helpers/fs/dirs.ts";
import { waitFor } from "../../helpers/hosts/serve-process.ts";
import { launchArgs } from "../../helpers/process/launch.ts";

const ADDRESS = /^Marketing Software Data API: http:\/\/\S+/;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir("msapi-quiet-output-");
});
afterAll(() => dir?.remove());

/** A copy of the sample and an output folder of its own, for one test. */
async function project(name: string): Promise<{ content: string; dist: string }> {
  const content = join(dir.path, name, "content");
  await cp(sampleContent, content, { recursive: true });
  return { content, dist: join(dir.path, name, "dist") };
}

/** Runs a serving command until it prints its address; returns every line it printed before, then stops it. */
async function linesBeforeAddress(entry: string, ...args: string[]): Promise<string[]> {
  const child: ChildProcess = spawn(process.execPath, launchArgs(entry, ...args), {
    cwd: repoRoot,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0" },
  });
  const lines: string[] = [];
  let addressed = false;
  const collect = (stream: NodeJS.ReadableStream) => {
    let pending = "";
    stream.on("data", (chunk: Buffer) => {
      pending += chunk;
      const whole = pending.split("\n");
      pending = whole.pop()!;
      for (const line of whole) {
        if (ADDRESS.test(line)) addressed = true;
        if (!addressed) lines.push(line);
      }
    });
  };
  collect(child.stdout!);
  collect(child.stderr!);
  const exited = once(child, "exit");
  try {
    await waitFor(() => addressed || child.exitCode !== null, 110_000);
    expect(addressed, lines.join("\n")).toBe(true);
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  return lines;
}

function buildLines({ content, dist }: { content: string; dist: string }): string[] {
  const run = spawnSync(
    process.execPath,
    launchArgs("scripts/commands/build.ts", "--content", content, "--out", dist),
    {
      cwd: repoRoot,
      encoding: "utf8",
      timeout: 110_000,
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return `${run.stdout}${run.stderr}`.split("\n").filter(Boolean);
}

describe("build output a new user can read", () => {
  it("npm start on the sample prints at most five lines of its own before the server's address", async () => {
    const { content, dist } = await project("start");
    const lines = await linesBeforeAddress(
      "scripts/commands/start.ts",
      "--content",
      content,
      "--dist",
      dist,
      "--port",
      "0",
    );
    expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(5);
    expect(lines[0]).toMatch(
      /^built \S+ in [\d.]+ s \(full, g\d+\): [\d,]+ served files \([\d.]+ MB\) and \d+ build records/,
    );
    // Every kind the sample warns of is still said, one line each.
    expect(lines.join("\n")).toMatch(/placeholder addresses/);
    expect(lines.join("\n")).toMatch(/podcast-marketing\.json: no tool is in this category/);
    expect(lines.join("\n")).toMatch(/Cloudflare Pages \(Free\)/);
  }, 120_000);

  it("the next build counts the warnings the last one printed in one line", async () => {
    const sample = await project("again");
    buildLines(sample);
    const lines = buildLines(sample);
    expect(lines).toEqual([
      expect.stringMatching(/: no served file changed against the build it replaced; /),
      expect.stringMatching(
        /^warning: \d+ warnings the last build printed too \(\d+ placeholder addresses, 1 empty category, 1 duplicate name, 1 host limit\): --verbose lists them$/,
      ),
    ]);
  }, 120_000);

  it("a warning about a file changed since the last build comes first and whole", async () => {
    const sample = await project("changed");
    buildLines(sample);
    const file = join(sample.content, "tools/mailwave.json");
    const tool = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...tool, shortDescription: "TODO: say what it does" }, null, 2));
    const lines = buildLines(sample);
    expect(lines[1]).toMatch(
      /^warning: \S*tools\/mailwave\.json: shortDescription: still holds TODO text: write the real one/,
    );
    // Every warning of the edited file whole (its placeholder addresses too), then the others in one line.
    const [, ...warned] = lines;
    expect(warned.slice(0, -1).every((line) => /^warning: \S*tools\/mailwave\.json: /.test(line))).toBe(true);
    expect(warned.at(-1)).toMatch(/^warning: \d+ warnings the last build printed too /);
  }, 120_000);

  it("npm run dev after a build starts as quietly", async () => {
    const { content, dist } = await project("dev");
    buildLines({ content, dist });
    const lines = await linesBeforeAddress("scripts/commands/dev.ts", "--content", content, "--out", dist);
    expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(2);
    expect(lines[1]).toMatch(/^warning: \d+ warnings the last build printed too /);
  }, 120_000);
});
