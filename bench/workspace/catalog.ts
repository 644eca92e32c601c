// The benchmark's catalogs: the synthetic generator with a fixed seed, and the two edits the incremental step makes.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateCatalog, writeCatalog } from "../../scripts/content/generate.ts";
import { compareByName } from "../../scripts/model/order.ts";

const SEED = 1;
const CATEGORIES = 12;

export async function writeBenchCatalog(tools: number, contentDir: string): Promise<void> {
  await writeCatalog(generateCatalog({ tools, categories: CATEGORIES, seed: SEED }), contentDir);
}

interface ToolFile {
  name: string;
  slug: string;
  pricingPlans: { price: number | null }[];
  [key: string]: unknown;
}

/** The generated tools in O1 order (the order of GET /software). */
function toolsByName(tools: number): { name: string; slug: string }[] {
  return generateCatalog({ tools, categories: CATEGORIES, seed: SEED }).tools.sort(compareByName);
}

const toolPath = (contentDir: string, slug: string) => join(contentDir, "tools", `${slug}.json`);

async function readTool(contentDir: string, slug: string): Promise<ToolFile> {
  return JSON.parse(await readFile(toolPath(contentDir, slug), "utf8")) as ToolFile;
}

async function writeTool(contentDir: string, tool: ToolFile): Promise<void> {
  await writeFile(toolPath(contentDir, tool.slug), `${JSON.stringify(tool, null, 2)}\n`);
}

/** Raises one paid plan's price by 1 on the first tool at or after the middle of the list that has one. */
export async function changeOnePrice(contentDir: string, tools: number): Promise<string> {
  const ordered = toolsByName(tools);
  for (let i = Math.floor(ordered.length / 2); i < ordered.length; i++) {
    const tool = await readTool(contentDir, ordered[i]!.slug);
    const plan = tool.pricingPlans.find((p) => typeof p.price === "number" && p.price > 0);
    if (!plan) continue;
    const before = plan.price!;
    plan.price = Math.round((before + 1) * 100) / 100;
    await writeTool(contentDir, tool);
    return `${tool.slug}: ${before} → ${plan.price}`;
  }
  throw new Error(`no tool with a paid plan in the second half of ${contentDir}`);
}

/** Adds a copy of the middle tool under a name that sorts right after it (O1), so it lands mid-list; `k` > 0 makes
 *  it the k-th such tool (a series of inserts). */
export async function insertToolMidList(contentDir: string, tools: number, k = 0): Promise<string> {
  const ordered = toolsByName(tools);
  const middle = ordered[Math.floor(ordered.length / 2)]!;
  const tool = await readTool(contentDir, middle.slug);
  const slug = `${middle.slug}-bench-insert${k > 0 ? `-${k}` : ""}`;
  const name = `${middle.name} Bench Insert${k > 0 ? ` ${k}` : ""}`;
  await writeTool(contentDir, {
    ...tool,
    name,
    slug,
    shortDescription: `${name} is the tool the incremental benchmark inserts.`,
    websiteUrl: `https://${slug}.example`,
    logoUrl: null,
  });
  const position = [...ordered, { name, slug }].sort(compareByName).findIndex((t) => t.slug === slug) + 1;
  return `${slug} (position ${position} of ${ordered.length + 1} by name)`;
}
