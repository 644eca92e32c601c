// Copies of the tiny fixture with edits, as a user makes them: a price and a name changed, a tool inserted.
import { cp, mkdir, readFile, realpath, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { build } from "../../../../scripts/build.ts";
import { fixture } from "../../fs/dirs.ts";

export const INSERTED_SLUG = "omega-mail";

/** The tiny fixture copied to `dir`. */
export async function copyTiny(dir: string): Promise<string> {
  await cp(fixture("tiny"), dir, { recursive: true });
  return dir;
}

/** alpha-mail renamed with a new Pro price, and one tool more (omega-mail, in email). */
export async function editTiny(content: string, tag: string): Promise<void> {
  const file = join(content, "tools/alpha-mail.json");
  const tool = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown> & {
    pricingPlans: { price: number }[];
  };
  tool.name = `alpha Mail ${tag}`;
  tool.pricingPlans[1]!.price = 29;
  await writeFile(file, JSON.stringify(tool, null, 2));
  await writeFile(
    join(content, `tools/${INSERTED_SLUG}.json`),
    JSON.stringify({ ...tool, name: "omega Mail", slug: INSERTED_SLUG }, null, 2),
  );
}

/**
 * Two builds in `dir` — the tiny fixture (a) and it edited (b) — and `dist`, our own link to a, which the tests switch
 * with publish() (build() publishes each output as a link to its generation folder: the real folders are kept).
 */
export async function twoBuilds(dir: string): Promise<{ genA: string; genB: string; dist: string }> {
  const content = await copyTiny(join(dir, "content"));
  await mkdir(join(dir, "store"));
  await build({ contentDir: content, outDir: join(dir, "store/a") });
  await editTiny(content, "v2");
  await build({ contentDir: content, outDir: join(dir, "store/b") });
  const dist = join(dir, "dist");
  const genA = await realpath(join(dir, "store/a"));
  await symlink(genA, dist);
  return { genA, genB: await realpath(join(dir, "store/b")), dist };
}

/** Points `link` at `target` in one step, as the build publishes. */
export async function publish(link: string, target: string): Promise<void> {
  const temporary = `${link}.next`;
  await rm(temporary, { force: true });
  await symlink(target, temporary);
  await rename(temporary, link);
}
