// npm run new:tool / new:category as a content author runs them: real processes on a copy of the tiny fixture, then
// a real build of that copy, which must take the stubs as they are and publish the new tool.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, readFile, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { SLUG_PATTERN } from "../../../scripts/content/schema.ts";
import { slugFromName } from "../../../scripts/scaffold/slug.ts";
import { validatorFor } from "../../../scripts/schemas/validators.ts";
import { fixture, repoRoot, tempDir } from "../../helpers/fs/dirs.ts";
import { launchArgs } from "../../helpers/process/launch.ts";

function run(command: "new-tool" | "new-category", args: string[]) {
  const r = spawnSync(process.execPath, launchArgs(`scripts/commands/${command}.ts`, ...args), {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("slugFromName: the content schema's slug rule", () => {
  it.each([
    ["Acme Mail", "acme-mail"],
    ["Email Marketing", "email-marketing"],
    ["  HubSpot CRM!  ", "hubspot-crm"],
    ["Señal & Co.", "senal-co"],
    ["360Reach", "360reach"],
    ["A -- B", "a-b"],
  ])("%j → %j, which matches the slug pattern", (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
    expect(slug).toMatch(new RegExp(SLUG_PATTERN));
  });

  it("a name with no letter or digit has no slug", () => {
    expect(slugFromName("!!! ???")).toBeUndefined();
    expect(slugFromName("日本")).toBeUndefined();
  });
});

describe("new:category and new:tool on a copy of the tiny fixture", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let content: string;
  beforeAll(async () => {
    dir = await tempDir("msapi-scaffold-");
    content = join(dir.path, "content");
    await cp(fixture("tiny"), content, { recursive: true });
  });
  afterAll(() => dir?.remove());

  it("new:category writes categories/<slug>.json, prints its path, and the stub matches the category schema", async () => {
    const r = run("new-category", ["--name", "Email Marketing", "--content", content]);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(r.status).toBe(0);
    const path = join(content, "categories/email-marketing.json");
    expect(r.stdout.trim()).toBe(path);
    const stub = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(stub).toMatchObject({ name: "Email Marketing", slug: "email-marketing" });
    expect(validatorFor("content/category.schema.json")(stub)).toBe(true);
    // $schema points, from the file's folder, at the real schema file, so an editor can validate while one types.
    expect(existsSync(resolve(dirname(path), stub.$schema as string))).toBe(true);
    expect(resolve(dirname(path), stub.$schema as string)).toBe(join(repoRoot, "schemas/content/category.schema.json"));
  });

  it("new:tool writes tools/<slug>.json in that category, with $schema, rating null and short placeholders", async () => {
    const r = run("new-tool", ["--name", "Acme Mail", "--category", "email-marketing", "--content", content, "--json"]);
    expect(r.status).toBe(0);
    const answer = JSON.parse(r.stdout) as { ok: boolean; path: string; slug: string };
    const path = join(content, "tools/acme-mail.json");
    expect(answer).toEqual({ ok: true, path, slug: "acme-mail" });
    const stub = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(stub).toMatchObject({ name: "Acme Mail", slug: "acme-mail", rating: null, categories: ["email-marketing"] });
    expect(resolve(dirname(path), stub.$schema as string)).toBe(join(repoRoot, "schemas/content/tool.schema.json"));
    expect(validatorFor("content/tool.schema.json")(stub)).toBe(true);
    expect((stub.shortDescription as string).length).toBeLessThanOrEqual(80);
  });

  it("the build takes both stubs as they are, and publishes the new tool", async () => {
    const out = join(dir.path, "dist");
    const result = await build({ contentDir: content, outDir: out });
    expect(result.tools).toBe(5);
    const detail = JSON.parse(await readFile(join(out, "v1/software/acme-mail.json"), "utf8")) as {
      data: { name: string; rating: unknown };
    };
    expect(detail.data).toMatchObject({ name: "Acme Mail", rating: null });
    const best = JSON.parse(await readFile(join(out, "v1/best/email-marketing.json"), "utf8")) as {
      data: { slug: string }[];
    };
    expect(best.data.map((t) => t.slug)).toEqual(["acme-mail"]);
  });

  it("the build warns about what the stubs left to replace, and fails on it under --strict, publishing nothing", async () => {
    const bare = run("new-tool", ["--content", content, "--name", "Zed"]); // no category either
    expect(bare.status).toBe(0);
    const out = join(dir.path, "dist");
    const before = await readFile(join(out, "v1/software/acme-mail.json"), "utf8");
    const built = await build({ contentDir: content, outDir: out });
    const mine = (file: string) =>
      built.contentWarnings.filter((w) => w.file.endsWith(file)).map((w) => `${w.kind} ${w.path}`);
    expect(mine("tools/zed.json")).toEqual([
      "todo shortDescription",
      "example-address websiteUrl",
      "no-category categories",
    ]);
    expect(mine("tools/acme-mail.json")).toEqual(["todo shortDescription", "example-address websiteUrl"]);
    // The command line prints them, grouped by kind, and exits 0; with --strict it exits 1 and dist/ stays as it was.
    const cli = (...flags: string[]) =>
      spawnSync(
        process.execPath,
        ["scripts/launcher/launch.cjs", "scripts/commands/build.ts", "--content", content, "--out", out, ...flags],
        {
          cwd: repoRoot,
          encoding: "utf8",
          timeout: 60_000,
        },
      );
    // The build just before remembered them: the command line counts them in one line, and --verbose lists each.
    const warned = cli();
    expect(warned.status).toBe(0);
    expect(warned.stderr).toMatch(
      /^warning: \d+ warnings the last build printed too \(2 TODO texts, .*\): --verbose lists them$/m,
    );
    const listed = cli("--verbose");
    expect(listed.stderr).toMatch(/^warning: TODO text from the scaffold, 2 in all:$/m);
    expect(listed.stderr).toContain("tools/zed.json: categories: the tool is in no category");
    await rm(join(content, "tools/zed.json"));
    const strict = cli("--strict");
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain("tools/acme-mail.json: shortDescription: still holds TODO text");
    expect(strict.stderr).toMatch(/build failed: \d+ placeholders \(errors under --strict\)/);
    expect(await readFile(join(out, "v1/software/acme-mail.json"), "utf8")).toBe(before);
    expect(existsSync(join(out, "v1/software/zed.json"))).toBe(true); // the last published build, untouched
  });

  it("refuses to overwrite: one line naming the file, exit 1, the file unchanged", async () => {
    const path = join(content, "tools/acme-mail.json");
    const before = await readFile(path, "utf8");
    const r = run("new-tool", ["--name", "ACME mail", "--content", content]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toEqual([
      `${path} already exists: not overwritten (choose another --name or --slug)`,
    ]);
    expect(await readFile(path, "utf8")).toBe(before);
  });

  it("an unknown category is one line and exit 1, and nothing is written", () => {
    const r = run("new-tool", ["--name", "Beta Two", "--category", "no-such-category", "--content", content]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain('no category "no-such-category"');
    expect(existsSync(join(content, "tools/beta-two.json"))).toBe(false);
  });

  it("--slug chooses the file name; a bad --slug, a missing --name or an unknown flag is one line, exit 2", () => {
    expect(run("new-category", ["--name", "Social Media", "--slug", "social", "--content", content]).status).toBe(0);
    expect(existsSync(join(content, "categories/social.json"))).toBe(true);
    for (const args of [
      ["--name", "X", "--slug", "Not A Slug"],
      ["--content", content],
      ["--name", "X", "--nmae", "Y"],
    ]) {
      const r = run("new-tool", args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
  });

  it("a folder without site.json is refused: one line, exit 1", () => {
    const r = run("new-tool", ["--name", "Acme", "--content", join(dir.path, "nowhere")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not a content folder/);
  });

  it("--help prints the usage and exits 0", () => {
    const r = run("new-tool", ["--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('usage: npm run new:tool -- --name "Acme Mail"');
    expect(r.stdout).toContain("--category SLUG");
  });
});
