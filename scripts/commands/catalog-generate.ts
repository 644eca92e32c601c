// npm run catalog:generate: the flags, then a synthetic catalog written to --out (scripts/content/generate.ts).
import { resolve } from "node:path";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { writeGeneratedCatalog } from "../content/generate.ts";

const options = {
  tools: { type: "string", default: "1000", valueName: "N", description: "number of tools" },
  categories: { type: "string", default: "12", valueName: "K", description: "number of categories" },
  seed: {
    type: "string",
    default: "1",
    valueName: "S",
    description: "seed of the random choices: same seed, same bytes",
  },
  out: { type: "string", default: "tmp/catalog", valueName: "DIR", description: "content folder to (re)create" },
} as const;

export const CATALOG_GENERATE: CommandSpec<typeof options> = {
  usage: "npm run catalog:generate --",
  summary:
    "Writes a synthetic catalog (site.json, categories/, tools/) that passes validation, for benchmarks and tests. Replaces --out.",
  options,
  notes: [
    "example: npm run catalog:generate -- --tools 5000 --out tmp/catalog-5k && npm run build -- --content tmp/catalog-5k --out tmp/dist-5k",
  ],
};

async function main(): Promise<void> {
  const values = parseCommandArgs(CATALOG_GENERATE);
  const count = (name: "tools" | "categories" | "seed") => {
    const n = Number(values[name]);
    if (!/^\d+$/.test(values[name]) || !Number.isSafeInteger(n))
      throw new UserError(`--${name} must be a whole number ≥ 0, got "${values[name]}"`, 2);
    return n;
  };
  const generate = { tools: count("tools"), categories: count("categories"), seed: count("seed") };
  await writeGeneratedCatalog(resolve(values.out), generate);
  console.log(
    `wrote ${values.out}/: ${generate.tools} tools, ${generate.categories} categories (seed ${generate.seed})`,
  );
}

if (isMain(import.meta.url)) void runCommand(main);
