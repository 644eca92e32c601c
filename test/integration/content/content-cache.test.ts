// A rebuild reads and validates only the content files changed since the last good build (content-cache.ts). A
// file's signature (inode, size, modification and change times) decides, so an edit is seen however it was made.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { deserialize } from "node:v8";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import {
  CONTENT_CACHE_FILE,
  CONTENT_CHANGES_FILE,
  REWRITE_AFTER,
  readContentCache,
} from "../../../scripts/content/content-cache.ts";
import { ContentErrors } from "../../../scripts/content/errors.ts";
import { LINK_MESSAGE } from "../../../scripts/content/load.ts";
import type { ToolTexts } from "../../../scripts/render/tool-texts.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

/** Files changed more recently than this are always read (file-hashes.cjs): the test waits it out once. */
const SETTLE_MS = 2_100;
/** The code hash a cache was written for (what readContentCache must be given): its first frame's (a 4-byte length,
 *  then a serialized header). */
const codeKeyOf = (store: string) => {
  const bytes = readFileSync(join(store, CONTENT_CACHE_FILE));
  return (deserialize(bytes.subarray(4, 4 + bytes.readUInt32LE(0))) as { key: string }).key;
};

describe("the content cache", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let content: string;
  let dist: string;
  const betaMail = () => join(content, "tools/beta-mail.json");
  const detailOf = async (slug: string) =>
    JSON.parse(await readFile(join(dist, `v1/software/${slug}.json`), "utf8")).data;

  beforeAll(async () => {
    dir = await tempDir("msapi-content-cache-");
    content = join(dir.path, "content");
    dist = join(dir.path, "dist");
    await cp(fixture("tiny"), content, { recursive: true });
    await sleep(SETTLE_MS);
    const first = await build({ contentDir: content, outDir: dist });
    expect(first).toMatchObject({ mode: "full", contentFiles: 9, contentRecalled: 0 });
  });
  afterAll(() => dir.remove());

  it("recalls every unchanged file and reads an edited one; the tree is what a full build makes", async () => {
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({
      written: 0,
      contentFiles: 9,
      contentRecalled: 9,
    });
    await writeFile(betaMail(), (await readFile(betaMail(), "utf8")).replace('"price":19', '"price":25'));
    // its detail and /best/email; the export and the one piece of it that holds the tool; the hash tree's shards of
    // those (software-0, best-0, catalog) and root; the find index (each tool's lowest paid price), its parts and the
    // one piece of it that holds the tool
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({
      written: 2 + 2 + 4 + 3,
      contentRecalled: 8,
    });
    expect((await detailOf("beta-mail")).pricingPlans[0].price).toBe(25);
    const fresh = join(dir.path, "fresh");
    await build({ contentDir: content, outDir: fresh, full: true });
    expect(await hashTree(dist)).toEqual(await hashTree(fresh));
    await rm(fresh, { recursive: true });
    await rm(`${fresh}.builds`, { recursive: true });
  });

  it("remembers a file read anew in a small file of changes, and rewrites the whole cache once changes pile up", async () => {
    const store = `${dist}.builds`;
    await build({ contentDir: content, outDir: dist, full: true });
    const whole = await readFile(join(store, CONTENT_CACHE_FILE));
    const text = await readFile(betaMail(), "utf8");
    await writeFile(betaMail(), text.replace('"price":25', '"price":26'));
    await sleep(SETTLE_MS);
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ contentRecalled: 8 });
    expect(await readFile(join(store, CONTENT_CACHE_FILE))).toEqual(whole);
    expect([...readContentCache(store, codeKeyOf(store)).changes.keys()]).toEqual([betaMail()]);
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ contentRecalled: 9 });
    // As many files read anew as REWRITE_AFTER: the whole cache again, and no file of changes.
    for (let i = 0; i < REWRITE_AFTER; i++)
      await writeFile(
        join(content, `tools/copy-${i}.json`),
        (await readFile(betaMail(), "utf8"))
          .replace('"slug": "beta-mail"', `"slug": "copy-${i}"`)
          .replace('"name": "Beta Mail"', `"name": "Copy ${i}"`),
      );
    await sleep(SETTLE_MS);
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ contentRecalled: 9 });
    expect(await readFile(join(store, CONTENT_CACHE_FILE))).not.toEqual(whole);
    expect(readContentCache(store, codeKeyOf(store)).changes.size).toBe(0);
    await expect(stat(join(store, CONTENT_CHANGES_FILE))).rejects.toThrow();
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ contentRecalled: 9 + REWRITE_AFTER });
    for (let i = 0; i < REWRITE_AFTER; i++) await rm(join(content, `tools/copy-${i}.json`));
    await writeFile(betaMail(), text);
  }, 180_000); // a dozen real builds: minutes on a loaded 2-core machine

  it("sees an edit that keeps the size and puts the modification time back (the change time still moves)", async () => {
    await sleep(SETTLE_MS); // beta-mail settles, so a cache that trusted mtime and size alone would recall it
    await build({ contentDir: content, outDir: dist });
    const before = await stat(betaMail(), { bigint: true });
    // touch -r copies the time to the nanosecond (utimes from JavaScript rounds it).
    const reference = join(dir.path, "mtime-reference");
    execFileSync("touch", ["-r", betaMail(), reference]);
    await writeFile(betaMail(), (await readFile(betaMail(), "utf8")).replace('"price":25', '"price":35'));
    execFileSync("touch", ["-r", reference, betaMail()]);
    const after = await stat(betaMail(), { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    await sleep(SETTLE_MS); // settled again: only the change time tells
    await build({ contentDir: content, outDir: dist });
    expect((await detailOf("beta-mail")).pricingPlans[0].price).toBe(35);
  });

  it("reports a broken edit of a remembered file, and keeps the last good build's cache", async () => {
    const cache = join(`${dist}.builds`, CONTENT_CACHE_FILE);
    const kept = await readFile(cache);
    const good = await readFile(betaMail(), "utf8");
    await writeFile(betaMail(), good.replace('"rating": 3.9', '"rating": "high"'));
    const error = await build({ contentDir: content, outDir: dist }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    expect((error as ContentErrors).errors).toEqual([
      expect.objectContaining({ file: expect.stringMatching(/tools\/beta-mail\.json$/), path: "rating" }),
    ]);
    expect(await readFile(cache)).toEqual(kept);
    await writeFile(betaMail(), good);
  });

  it("refuses a remembered file that became a symbolic link, without reading its target", async () => {
    const quill = join(content, "tools/quill.json");
    const text = await readFile(quill, "utf8");
    const outside = join(dir.path, "outside.json");
    await writeFile(outside, text);
    await rm(quill);
    await symlink(outside, quill);
    const error = await build({ contentDir: content, outDir: dist }).catch((e: unknown) => e);
    expect((error as ContentErrors).errors).toEqual([
      expect.objectContaining({ file: expect.stringMatching(/tools\/quill\.json$/), message: LINK_MESSAGE }),
    ]);
    await rm(quill);
    await writeFile(quill, text);
  });

  it("warns of the placeholders a recalled file holds, as a full build does, and forgets them once edited away", async () => {
    const quill = join(content, "tools/quill.json");
    const text = await readFile(quill, "utf8");
    const todo = text.replace(/"shortDescription": "[^"]*"/, '"shortDescription": "TODO: say what Quill does"');
    expect(todo).not.toBe(text);
    await writeFile(quill, todo);
    await sleep(SETTLE_MS);
    const quillTodo = expect.objectContaining({ file: expect.stringMatching(/tools\/quill\.json$/), kind: "todo" });
    const read = await build({ contentDir: content, outDir: dist });
    expect(read.contentWarnings).toContainEqual(quillTodo);
    const remembered = readContentCache(`${dist}.builds`, codeKeyOf(`${dist}.builds`)).files.get(quill);
    expect(remembered?.placeholders).toContainEqual(
      expect.objectContaining({ path: "shortDescription", kind: "todo" }),
    );
    // Recalled, not read: the same warnings, in the same order, as a build that reads everything.
    const recalled = await build({ contentDir: content, outDir: dist });
    expect(recalled.contentRecalled).toBe(recalled.contentFiles);
    const full = await build({ contentDir: content, outDir: join(dir.path, "full"), full: true });
    expect(recalled.contentWarnings).toEqual(full.contentWarnings);
    expect(recalled.contentWarnings).toEqual(read.contentWarnings);
    await writeFile(quill, text);
    expect((await build({ contentDir: content, outDir: dist })).contentWarnings).not.toContainEqual(quillTodo);
  });

  it("remembers how many files the last good build had, those changed in its last seconds too", async () => {
    const store = `${dist}.builds`;
    const cache = () => readContentCache(store, codeKeyOf(store));
    await build({ contentDir: content, outDir: dist });
    expect(cache().count).toBe(9);
    // An edit just made is not remembered (its signature is not settled), yet the count holds: the next build knows
    // that no file was added (it starts no page writer ahead).
    const text = await readFile(betaMail(), "utf8");
    await writeFile(betaMail(), text.replace('"price":19', '"price":21'));
    await build({ contentDir: content, outDir: dist });
    expect(cache().count).toBe(9);
    const added = join(content, "tools/beta-mail-copy.json");
    await writeFile(added, text.replace(/"slug": "beta-mail"/, '"slug": "beta-mail-copy"'));
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ contentFiles: 10 });
    expect(cache().count).toBe(10);
    await rm(added);
    await writeFile(betaMail(), text);
    await build({ contentDir: content, outDir: dist });
    expect(cache().count).toBe(9);
  });

  it("keeps what each tool's file rendered to, and renders it again once the categories' order or the site's address changes", async () => {
    const store = `${dist}.builds`;
    // alpha-mail's file is one no other test writes (a file changed in the last seconds is not remembered).
    const memoOf = (slug: string) =>
      readContentCache(store, codeKeyOf(store)).files.get(join(content, `tools/${slug}.json`))?.memo as
        | ToolTexts
        | undefined;
    const sameAsFull = async () => {
      const fresh = join(dir.path, "fresh");
      await build({ contentDir: content, outDir: fresh, full: true });
      expect(await hashTree(dist)).toEqual(await hashTree(fresh));
      await rm(fresh, { recursive: true });
      await rm(`${fresh}.builds`, { recursive: true });
    };
    await build({ contentDir: content, outDir: dist });
    const kept = memoOf("alpha-mail");
    expect(kept?.summary).toContain('"categories":["crm","email"]');
    expect(await build({ contentDir: content, outDir: dist })).toMatchObject({ written: 0 });
    expect(memoOf("alpha-mail")).toEqual(kept);
    /** Edits `file` (its text before is returned), rebuilds, and finds alpha-mail's summary made again. */
    const edited = async (file: string, from: string, to: string, summaryHolds: string) => {
      const before = await readFile(file, "utf8");
      await writeFile(file, before.replace(from, to));
      await build({ contentDir: content, outDir: dist });
      expect(memoOf("alpha-mail")?.summary).toContain(summaryHolds);
      await sameAsFull();
      return before;
    };
    // CRM renamed to sort after Email: alpha-mail's summary names its categories the other way round.
    const crm = join(content, "categories/crm.json");
    const crmText = await edited(crm, '"name": "CRM"', '"name": "Zeta CRM"', '"categories":["email","crm"]');
    const site = join(content, "site.json");
    const siteUrl = '"url":"https://other.example/software/alpha-mail"';
    const siteText = await edited(site, '"https://site.example"', '"https://other.example"', siteUrl);
    await writeFile(crm, crmText);
    await writeFile(site, siteText);
  }, 60_000);

  it("is not used by a --full build, nor by other code or schemas", async () => {
    expect(await build({ contentDir: content, outDir: dist, full: true })).toMatchObject({ contentRecalled: 0 });
    expect(readContentCache(`${dist}.builds`, "another code hash").files.size).toBe(0);
  });
});
