// Copies of the tiny fixture with edits, as a user makes them: a price and a name changed, a tool inserted.
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fixture } from "../helpers/dirs.ts";

export const INSERTED_SLUG = "omega-mail";

/** The tiny fixture copied to `dir`. */
export async function copyTiny(dir: string): Promise<string> {
  await cp(fixture("tiny"), dir, { recursive: true });
  return dir;
}

/** alpha-mail renamed with a new Pro price, and one tool more (omega-mail, in email). */
export async function editTiny(content: string, tag: string): Promise<void> {
  const file = join(content, "tools/alpha-mail.json");
  const tool = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown> & { pricingPlans: { price: number }[] };
  tool.name = `alpha Mail ${tag}`;
  tool.pricingPlans[1]!.price = 29;
  await writeFile(file, JSON.stringify(tool, null, 2));
  await writeFile(join(content, `tools/${INSERTED_SLUG}.json`), JSON.stringify({ ...tool, name: "omega Mail", slug: INSERTED_SLUG }, null, 2));
}
