// The catalog of `npm run catalog:generate -- --tools N --categories K --seed S --out DIR` (its command:
// scripts/commands/catalog-generate.ts).
// A deterministic synthetic catalog that passes validation: same arguments, same bytes.
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../cli/command.ts";
import type { CategoryContent, PricingPlan, SiteSettings, ToolContent } from "./schema.ts";

export interface GenerateOptions {
  tools: number;
  categories: number;
  seed: number;
}

export interface GeneratedCatalog {
  site: SiteSettings;
  categories: CategoryContent[];
  tools: ToolContent[];
}

/** mulberry32: tiny, fast, and the same sequence on every platform. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
    chance: (p: number) => next() < p,
  };
}

const PREFIXES = [
  "Mail",
  "Lead",
  "Funnel",
  "Pixel",
  "Rank",
  "Social",
  "Ad",
  "Flow",
  "Pulse",
  "Signal",
  "Tally",
  "Quill",
  "Beacon",
  "Orbit",
  "Echo",
  "Nova",
  "Zürich",
  "Ñandú",
  "Émail",
  "360",
  "8bit",
  "hive",
  "Mönk",
  "Kumo",
];
const SUFFIXES = [
  "wave",
  "spring",
  "scope",
  "post",
  "rook",
  "deck",
  "wise",
  "state",
  "forge",
  "loop",
  "kit",
  "ly",
  "hub",
  "craft",
  "pilot",
  " Labs",
  " CRM",
  " Analytics",
  " Studio",
  " Cloud",
];
const TOPICS = [
  "Email Marketing",
  "Marketing Automation",
  "CRM",
  "Social Media",
  "SEO",
  "Analytics",
  "Landing Pages",
  "Content Marketing",
  "Advertising",
  "Customer Data",
  "Affiliate Marketing",
  "Podcast Marketing",
  "Webinars",
  "Surveys",
  "Events",
  "Influencer Marketing",
  "SMS Marketing",
  "Push Notifications",
  "Chatbots",
  "Reviews",
];
const PRICES = [5, 9, 9, 12, 15, 19, 19.99, 25, 29, 29, 39, 49, 49, 79, 99, 149, 199, 299, 499];
const PROS = [
  "Fast setup",
  "Clear reporting",
  "Generous free tier",
  "Good API docs",
  "Responsive support",
  "Native integrations",
];
const CONS = ["Steep learning curve", "Limited templates", "Add-ons cost extra", "Dated interface", "Few integrations"];

const slugify = (s: string) =>
  s
    .normalize("NFKD")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the class is "any ASCII", control characters included
    .replace(/[^\x00-\x7f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export function generateCatalog({ tools, categories, seed }: GenerateOptions): GeneratedCatalog {
  const rnd = random(seed);
  const cats: CategoryContent[] = Array.from({ length: categories }, (_, i) => {
    const name = i < TOPICS.length ? TOPICS[i]! : `${TOPICS[i % TOPICS.length]} ${Math.floor(i / TOPICS.length) + 1}`;
    return { $schema: "../../schemas/content/category.schema.json", name, slug: slugify(name) };
  });
  const usedSlugs = new Set<string>();
  const out: ToolContent[] = [];
  for (let i = 0; i < tools; i++) {
    const base = `${rnd.pick(PREFIXES)}${rnd.pick(SUFFIXES)}`;
    let slug = slugify(base);
    let name = base;
    for (let n = 2; usedSlugs.has(slug); n++) {
      slug = `${slugify(base)}-${n}`;
      name = `${base} ${n}`;
    }
    usedSlugs.add(slug);
    const plans: PricingPlan[] = [];
    if (rnd.chance(0.45)) plans.push({ name: "Free", price: 0, billing: "monthly", features: ["Core features"] });
    const paid = rnd.chance(0.08) ? 0 : rnd.int(1, 3);
    for (let p = 0; p < paid; p++) {
      plans.push({
        name: ["Starter", "Pro", "Business"][p]!,
        price: rnd.pick(PRICES) * (p + 1),
        billing: rnd.pick(["monthly", "annual"] as const),
        features: [`Tier ${p + 1} limits`],
      });
    }
    if (rnd.chance(0.25))
      plans.push({ name: "Enterprise", price: null, billing: "custom", features: ["SSO", "Dedicated support"] });
    const memberOf = new Set<string>();
    if (cats.length > 0) {
      // Skewed so a few categories are large and the last ones small or empty, as in real catalogs.
      const count = rnd.int(1, Math.min(3, cats.length));
      for (let c = 0; c < count; c++)
        memberOf.add(cats[Math.floor(rnd.next() ** 2 * Math.max(1, cats.length - 1))]!.slug);
    }
    out.push({
      $schema: "../../schemas/content/tool.schema.json",
      name,
      slug,
      shortDescription: `${name} helps marketing teams with ${[...memberOf].join(", ") || "their stack"}.`,
      websiteUrl: `https://${slug}.example`,
      logoUrl: rnd.chance(0.8) ? `https://${slug}.example/logo.png` : null,
      rating: rnd.chance(0.12) ? null : rnd.int(10, 50) / 10,
      freeTrialDays: rnd.chance(0.6) ? rnd.pick([7, 14, 30]) : null,
      moneyBackDays: rnd.chance(0.3) ? rnd.pick([14, 30, 60]) : null,
      pricingPlans: plans,
      hasApi: rnd.chance(0.7),
      hasMcpServer: rnd.chance(0.25),
      hasZapier: rnd.chance(0.6),
      hasMake: rnd.chance(0.4),
      pros: [rnd.pick(PROS), rnd.pick(PROS)].filter((v, k, a) => a.indexOf(v) === k),
      cons: [rnd.pick(CONS)],
      pricingLastVerified: rnd.chance(0.9)
        ? `2026-${String(rnd.int(1, 10)).padStart(2, "0")}-${String(rnd.int(1, 28)).padStart(2, "0")}`
        : null,
      categories: [...memberOf],
    });
  }
  return {
    site: {
      $schema: "../schemas/content/site.schema.json",
      siteUrl: "https://marketingsoftware.example",
      apiBaseUrl: "https://api.marketingsoftware.example",
      basePath: "/v1",
      cacheMaxAge: 300,
    },
    categories: cats,
    tools: out,
  };
}

export async function writeCatalog(catalog: GeneratedCatalog, outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(join(outDir, "tools"), { recursive: true });
  await mkdir(join(outDir, "categories"), { recursive: true });
  const text = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  await writeFile(join(outDir, "site.json"), text(catalog.site));
  const files: [folder: string, entry: { slug: string }][] = [
    ...catalog.categories.map((c): [string, CategoryContent] => ["categories", c]),
    ...catalog.tools.map((t): [string, ToolContent] => ["tools", t]),
  ];
  // A bounded number at once: every file started together held one descriptor each, past `ulimit -n` at the
  // landscape's 103,528 tools (EMFILE).
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const [folder, entry] = files[next++]!;
      await writeFile(join(outDir, folder, `${entry.slug}.json`), text(entry));
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITES_AT_ONCE, files.length) }, lane));
}

/** Content files written at once by writeCatalog. */
const WRITES_AT_ONCE = 64;

const CATALOG_ENTRIES = new Set(["site.json", "tools", "categories"]);

/** --out is emptied first: refuse a folder that holds anything but a catalog, and the repository's own content/. */
async function checkReplaceable(outDir: string): Promise<void> {
  if (outDir === fileURLToPath(new URL("../../content", import.meta.url)))
    throw new UserError(`--out ${outDir} is the sample catalog: choose another folder (it would be replaced)`);
  const entries = await readdir(outDir).catch((e: NodeJS.ErrnoException) =>
    e.code === "ENOENT" ? [] : Promise.reject(e),
  );
  const foreign = entries.filter((e) => !CATALOG_ENTRIES.has(e));
  if (foreign.length > 0)
    throw new UserError(
      `--out ${outDir} holds more than a catalog (${foreign.slice(0, 3).join(", ")}${foreign.length > 3 ? ", …" : ""}): choose an empty or new folder`,
    );
}

/** Replaces `outDir` (refused when it holds anything but a catalog) with the catalog of these options. */
export async function writeGeneratedCatalog(outDir: string, options: GenerateOptions): Promise<void> {
  await checkReplaceable(outDir);
  await writeCatalog(generateCatalog(options), outDir);
}
