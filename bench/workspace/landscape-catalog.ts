// The landscape step's catalogs: `npm run catalog:generate -- --tools N --categories K --seed 7` as a user runs it,
// and its two changes, both in the catalog's largest category: one price raised (the middle tool by name that has a
// paid plan) and one tool inserted (a copy of the middle tool under a name that sorts right after it).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateCatalog } from "../../scripts/content/generate.ts";
import { compareByName } from "../../scripts/model/order.ts";
import { runMeasured } from "../measure/measured-run.ts";
import { ROOT } from "./out.ts";

export const LANDSCAPE_SEED = 7;

export interface LandscapeSize {
  tools: number;
  categories: number;
}

/** `catalog:generate` as a child process, as `npm run catalog:generate` starts it: its wall seconds. */
export async function generateLandscape(size: LandscapeSize, out: string): Promise<number> {
  const run = await runMeasured(
    process.execPath,
    [
      join(ROOT, "scripts/launcher/launch.cjs"),
      join(ROOT, "scripts/commands/catalog-generate.ts"),
      ...["--tools", String(size.tools), "--categories", String(size.categories)],
      ...["--seed", String(LANDSCAPE_SEED), "--out", out],
    ],
    { cwd: ROOT },
  );
  if (run.code !== 0) throw new Error(`catalog:generate exited ${run.code}: ${run.stderr.slice(-1000)}`);
  return run.seconds;
}

/** The largest category's slug and its tools in O1 order, from the generator (the same bytes as the files). */
export function largestCategory(size: LandscapeSize): { slug: string; tools: { name: string; slug: string }[] } {
  const catalog = generateCatalog({ ...size, seed: LANDSCAPE_SEED });
  const members = new Map<string, { name: string; slug: string }[]>();
  for (const t of catalog.tools) for (const c of t.categories) members.set(c, [...(members.get(c) ?? []), t]);
  const [slug, tools] = [...members].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))[0]!;
  return { slug, tools: [...tools].sort(compareByName) };
}

interface ToolFile {
  name: string;
  slug: string;
  pricingPlans: { price: number | null }[];
  [key: string]: unknown;
}

const toolFile = (content: string, slug: string) => join(content, "tools", `${slug}.json`);
const readTool = async (content: string, slug: string) =>
  JSON.parse(await readFile(toolFile(content, slug), "utf8")) as ToolFile;

/** One change to a catalog: the content file it writes and its bytes, so the same change can be written elsewhere. */
export interface CatalogChange {
  what: string;
  slug: string;
  file: string;
  text: string;
}

/** Raises one paid price by 1 on the middle tool (by name) of the largest category that has a paid plan. */
export async function priceEditInLargest(content: string, size: LandscapeSize): Promise<CatalogChange> {
  const { slug: category, tools } = largestCategory(size);
  for (let i = Math.floor(tools.length / 2); i < tools.length; i++) {
    const tool = await readTool(content, tools[i]!.slug);
    const plan = tool.pricingPlans.find((p) => typeof p.price === "number" && p.price > 0);
    if (!plan) continue;
    const before = plan.price!;
    plan.price = Math.round((before + 1) * 100) / 100;
    return {
      what: `${tool.slug} (${category}, ${tools.length} tools): ${before} → ${plan.price}`,
      slug: tool.slug,
      file: `tools/${tool.slug}.json`,
      text: `${JSON.stringify(tool, null, 2)}\n`,
    };
  }
  throw new Error(`no tool with a paid plan in the second half of ${category}`);
}

/** A copy of the largest category's middle tool (by name) under a name that sorts right after it: mid-list there and
 *  in the unfiltered list; `k` > 1 makes it the k-th such tool. */
export async function insertInLargest(content: string, size: LandscapeSize, k = 1): Promise<CatalogChange> {
  const { slug: category, tools } = largestCategory(size);
  const middle = tools[Math.floor(tools.length / 2)]!;
  const tool = await readTool(content, middle.slug);
  const slug = `${middle.slug}-landscape-insert${k > 1 ? `-${k}` : ""}`;
  const name = `${middle.name} Landscape Insert${k > 1 ? ` ${k}` : ""}`;
  const inserted = {
    ...tool,
    name,
    slug,
    shortDescription: `${name} is the tool the landscape benchmark inserts.`,
    websiteUrl: `https://${slug}.example`,
    logoUrl: null,
  };
  const position = [...tools, { name, slug }].sort(compareByName).findIndex((t) => t.slug === slug) + 1;
  return {
    what: `${slug} (${category}: position ${position} of ${tools.length + 1} by name)`,
    slug,
    file: `tools/${slug}.json`,
    text: `${JSON.stringify(inserted, null, 2)}\n`,
  };
}

/** Writes a change into a content folder. */
export const applyChange = (content: string, change: CatalogChange) =>
  writeFile(join(content, change.file), change.text);
