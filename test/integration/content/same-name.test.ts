// Two tools with the same display name (accents and case aside) build with a warning naming both files; --strict
// refuses them, as it refuses the scaffold's placeholders.
import { existsSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { build } from "../../../scripts/build.ts";
import { ContentErrors, formatContentError } from "../../../scripts/content/errors.ts";
import type { ContentWarning } from "../../../scripts/content/placeholders.ts";
import { fixture, tempDir } from "../../helpers/fs/dirs.ts";

let tmp: Awaited<ReturnType<typeof tempDir>>;
let content: string;
beforeEach(async () => {
  tmp = await tempDir("msapi-same-name-");
  content = join(tmp.path, "content");
  await cp(fixture("tiny"), content, { recursive: true });
});
afterEach(() => tmp.remove());

/** Renames a tool of the tiny fixture. */
async function rename(slug: string, name: string) {
  const file = join(content, "tools", `${slug}.json`);
  const data = JSON.parse(await readFile(file, "utf8"));
  await writeFile(file, `${JSON.stringify({ ...data, name }, null, 2)}\n`);
}

const sameName = (warnings: ContentWarning[]) => warnings.filter((w) => w.kind === "same-name");

describe("two tools with the same name", () => {
  it("warn, naming both files, when the names differ only in accents and case", async () => {
    await rename("beta-mail", "NANDU crm"); // zeta-crm is "Ñandú CRM"
    const result = await build({ contentDir: content, outDir: join(tmp.path, "dist") });
    expect(sameName(result.contentWarnings).map(formatContentError)).toEqual([
      expect.stringMatching(
        /tools\/zeta-crm\.json: name: "Ñandú CRM" is also the name of .*tools\/beta-mail\.json: give each tool its own name$/,
      ),
    ]);
  });

  it("do not warn when every name is its own", async () => {
    const result = await build({ contentDir: content, outDir: join(tmp.path, "dist") });
    expect(sameName(result.contentWarnings)).toEqual([]);
  });

  it("fail the build under --strict, leaving nothing published", async () => {
    await rename("quill", "Beta Mail");
    const dist = join(tmp.path, "dist");
    const error = await build({ contentDir: content, outDir: dist, strict: true }).catch((e) => e);
    expect(existsSync(dist)).toBe(false);
    expect(error).toBeInstanceOf(ContentErrors);
    expect((error as ContentErrors).errors.map(formatContentError)).toContainEqual(
      expect.stringMatching(/tools\/quill\.json: name: "Beta Mail" is also the name of .*tools\/beta-mail\.json/),
    );
  });
});
