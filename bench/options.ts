// Command-line options of `npm run bench`.
import { type CommandSpec, parseCommandArgs, UserError } from "../scripts/cli/command.ts";
import type { LandscapeSize } from "./workspace/landscape-catalog.ts";

/** The landscape step's default catalogs (issue 48): the 2025 martech landscape, and G2's count of products. */
export const LANDSCAPE_SIZES = "15384:49,103528:300";

// r2 runs before serve: the serve step serves its bucket when the tree is past the Static Assets limits.
export const STEPS = ["build", "incremental", "r2", "serve", "sync", "landscape"] as const;
export type Step = (typeof STEPS)[number];

export interface BenchOptions {
  steps: Step[];
  /** catalog sizes (tools) of the build step */
  sizes: number[];
  /** the catalog the incremental and serve steps use */
  mainSize: number;
  /** the landscape step's catalogs: tools and categories each */
  landscapeSizes: LandscapeSize[];
  /** extra arguments passed to every build (e.g. --compress) */
  buildArgs: string[];
  /** Accept-Encoding sent by the serve step, when compressed bodies are measured */
  acceptEncoding: string | null;
  connections: number;
  /** seconds of each measured load run (a 1 s warm-up runs before the first) */
  duration: number;
  /** load runs per host, alternating between hosts; the best one counts */
  rounds: number;
  /** keep bench/out/ afterwards instead of deleting the built trees */
  keep: boolean;
  /** judge only (bench/judge/guard.ts): exit 1 when a row is missed or cannot be judged, and write no results */
  check: boolean;
  /** run nothing: print the tables of bench/results.json (the sections of `steps`) */
  report: boolean;
}

const options = {
  large: { type: "boolean", default: false, description: "also build n = 5,000 (skipped when the disk is too small)" },
  only: { type: "string", valueName: "STEPS", description: `comma list of ${STEPS.join(", ")} (default: all)` },
  sizes: { type: "string", valueName: "LIST", description: "build sizes, e.g. 100,500 (default 100,500,1000)" },
  "main-size": {
    type: "string",
    valueName: "N",
    description: "catalog for incremental and serve (default: largest size ≤ 1000)",
  },
  "landscape-sizes": {
    type: "string",
    default: LANDSCAPE_SIZES,
    valueName: "N:K,…",
    description: `the landscape step's catalogs, TOOLS:CATEGORIES each (default ${LANDSCAPE_SIZES}); the page-tree steps stay at --sizes`,
  },
  "build-arg": {
    type: "string",
    multiple: true,
    default: [] as string[],
    valueName: "ARG",
    description: "passed to every build; repeatable (e.g. --build-arg=--compress)",
  },
  compress: {
    type: "boolean",
    default: false,
    description: "same as --build-arg=--compress plus Accept-Encoding: br, gzip on the serve step",
  },
  connections: { type: "string", default: "20", valueName: "N", description: "autocannon connections" },
  duration: { type: "string", default: "5", valueName: "S", description: "seconds per load run" },
  rounds: {
    type: "string",
    default: "2",
    valueName: "N",
    description: "load runs per host, alternating between hosts; the best counts",
  },
  keep: { type: "boolean", default: false, description: "keep bench/out/ (built trees) afterwards" },
  check: {
    type: "boolean",
    default: false,
    description:
      "the regression guard: build and incremental at n = 1,000, judged against bench/results.json (counts exactly, CPU and memory within a tolerance, wall-clock ratios with a noise band); exits 1 on a miss; writes no results",
  },
  report: {
    type: "boolean",
    default: false,
    description:
      "run nothing: print the tables of bench/results.json as a run prints them, every step's or those of --only",
  },
} as const;

/** The flags that shape a run: meaningless with --report, which runs nothing. */
const RUN_FLAGS = Object.keys(options).filter((name) => name !== "only" && name !== "report");

export const BENCH: CommandSpec<typeof options> = {
  usage: "npm run bench --",
  summary:
    "Builds catalogs of several sizes, rebuilds after one change, and load-tests every host on loopback; prints tables, " +
    "writes bench/results.json and redraws docs/develop/growth.svg.",
  options,
  notes: [
    "a quick run: npm run bench -- --sizes 100 --only build",
    "the landscape (runs layout, n = 15,384 and 103,528): npm run bench -- --only landscape",
    "before calling a change under the build's path done: npm run bench -- --check",
    "the recorded figures as tables: npm run bench -- --report",
  ],
};

/** `--name text` as a whole number ≥ 1, or a one-line UserError (exit 2). */
export function positiveInt(name: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1)
    throw new UserError(`--${name} must be a whole number ≥ 1, got "${text}"`, 2);
  return n;
}

/** `15384:49,103528:300`: tools and categories of each landscape catalog. */
export function parseLandscapeSizes(text: string): LandscapeSize[] {
  return text.split(",").map((pair) => {
    const m = /^\s*(\d+):(\d+)\s*$/.exec(pair);
    if (!m) throw new UserError(`--landscape-sizes: "${pair}" is not TOOLS:CATEGORIES (e.g. 15384:49)`, 2);
    return { tools: positiveInt("landscape-sizes", m[1]!), categories: positiveInt("landscape-sizes", m[2]!) };
  });
}

/** Parses argv (--help prints the help and exits); a bad flag or value throws a one-line UserError (exit 2). */
export function parseBenchOptions(argv: string[]): BenchOptions {
  const values = parseCommandArgs(BENCH, argv);
  if (values.report)
    for (const arg of argv) {
      const name = /^--([\w-]+)/.exec(arg)?.[1];
      if (name && RUN_FLAGS.includes(name)) throw new UserError(`--report runs nothing: --${name} does not apply`, 2);
    }
  const steps = (values.only?.split(",") ?? (values.check ? ["build", "incremental"] : [...STEPS])).map((s) =>
    s.trim(),
  );
  for (const s of steps)
    if (!(STEPS as readonly string[]).includes(s))
      throw new UserError(`--only: unknown step "${s}" (steps: ${STEPS.join(", ")})`, 2);
  const sizes = values.sizes
    ? values.sizes.split(",").map((s) => positiveInt("sizes", s.trim()))
    : values.check
      ? [1000, ...(values.large ? [5000] : [])]
      : [100, 500, 1000, ...(values.large ? [5000] : [])];
  sizes.sort((a, b) => a - b);
  const mainSize = values["main-size"]
    ? positiveInt("main-size", values["main-size"])
    : ([...sizes].reverse().find((n) => n <= 1000) ?? sizes[0]!);
  const buildArgs = [...values["build-arg"], ...(values.compress ? ["--compress"] : [])];
  return {
    steps: STEPS.filter((s) => steps.includes(s)),
    sizes: [...new Set(sizes)],
    mainSize,
    landscapeSizes: parseLandscapeSizes(values["landscape-sizes"]),
    buildArgs: [...new Set(buildArgs)],
    acceptEncoding: values.compress ? "br, gzip" : null,
    connections: positiveInt("connections", values.connections),
    duration: positiveInt("duration", values.duration),
    rounds: positiveInt("rounds", values.rounds),
    keep: values.keep,
    check: values.check,
    report: values.report,
  };
}
