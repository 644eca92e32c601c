// C1–C4 beyond the exact messages of validate.test.ts: a BOM is fine, a link's target is never read or printed,
// and a 50 MB field is refused fast, without being printed.
import { cp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { ContentErrors, formatContentError } from "../../../scripts/content/errors.ts";
import { loadContent } from "../../../scripts/content/load.ts";
import { validateContent } from "../../../scripts/content/validate.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const remove of cleanups.splice(0)) await remove();
});

async function copyOf(name: string): Promise<string> {
  const dir = await tempDir("msapi-content-");
  cleanups.push(dir.remove);
  await cp(fixture(name), dir.path, { recursive: true, verbatimSymlinks: true });
  return dir.path;
}

const messagesOf = async (dir: string) => {
  const result = validateContent(await loadContent(dir));
  return result.ok ? [] : result.errors.map(formatContentError);
};

describe("content files are read safely (C1–C4)", () => {
  it("C1: a UTF-8 byte-order mark is accepted and ignored", async () => {
    const dir = await copyOf("tiny");
    const path = join(dir, "tools/quill.json");
    await writeFile(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), await readFile(path)]));
    const result = validateContent(await loadContent(dir));
    expect(result.ok && result.content.tools.find((t) => t.slug === "quill")?.name).toBe("Quill SEO");
  });

  it("C1: a bad byte is an error, never a U+FFFD in the content", async () => {
    const messages = await messagesOf(fixture("bad/not-utf8"));
    expect(messages).toHaveLength(1);
    expect(messages.join("\n")).not.toContain("\ufffd");
  });

  it("C2/C4: nothing of a link's target appears in any message (a secret file, a valid tool, a folder)", async () => {
    const secret = await readFile(fixture("outside/secret.env"), "utf8");
    for (const name of ["symlink-tool", "symlink-site", "symlink-valid-tool", "symlink-folder", "symlink-escape-dir"]) {
      const text = (await messagesOf(fixture(`bad/${name}`))).join("\n");
      expect(text, name).toMatch(/symbolic link/);
      for (const line of secret.split("\n").filter(Boolean)) expect(text, name).not.toContain(line.slice(0, 6));
      expect(text, name).not.toMatch(/Quill|alpha-mail|API_TOKEN|root:x/);
    }
  });

  it("C2: a link swapped in where a tools folder was is refused, and the catalog does not build from it", async () => {
    const result = validateContent(await loadContent(fixture("bad/symlink-folder")));
    expect(result.ok).toBe(false);
  });

  // No timed assertion (a loaded CI machine makes any bound flaky): the test's own timeout stands for "not stuck".
  it("C3: a 50 MB shortDescription is refused, its message quotes none of it, and the build writes nothing", async () => {
    const dir = await copyOf("bad/bad-rating");
    const path = join(dir, "tools/acme.json");
    const tool = JSON.parse(await readFile(path, "utf8"));
    tool.rating = 4.5;
    tool.shortDescription = "Z".repeat(50 * 1024 * 1024);
    await writeFile(path, JSON.stringify(tool));
    const messages = await messagesOf(dir);
    expect(messages).toEqual([
      `${relative(process.cwd(), path)}: shortDescription: longer than the limit of 300 characters (has 52428800)`,
    ]);

    // The build refuses it the same way, before deriving or rendering anything (validation is its first step).
    const outDir = join(dir, "..", `${basename(dir)}-out`);
    cleanups.push(() => rm(outDir, { recursive: true, force: true }));
    const refused = await build({ contentDir: dir, outDir }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ContentErrors);
    expect((refused as ContentErrors).errors.map(formatContentError)).toEqual(messages);
    await expect(stat(outDir)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(stat(`${outDir}.builds`)).rejects.toMatchObject({ code: "ENOENT" });
  }, 30_000);

  it("C3/C4: a long wrong value is quoted as a short prefix only", async () => {
    const dir = await copyOf("bad/bad-rating");
    const path = join(dir, "tools/acme.json");
    const tool = JSON.parse(await readFile(path, "utf8"));
    tool.rating = 4.5;
    tool.websiteUrl = `not a url ${"Q".repeat(1000)}`;
    await writeFile(path, JSON.stringify(tool));
    const [message, ...rest] = await messagesOf(dir);
    expect(rest).toEqual([]);
    expect(message).toMatch(/websiteUrl: expected a valid uri, got "not a url Q{30}"… \(1010 characters\)$/);
  });
});
