// Command-line options of `npm run bench`.
import { parseArgs } from "node:util";

export const STEPS = ["build", "incremental", "serve"] as const;
export type Step = (typeof STEPS)[number];

export interface BenchOptions {
  steps: Step[];
  /** catalog sizes (tools) of the build step */
  sizes: number[];
  /** the catalog the incremental and serve steps use */
  mainSize: number;
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
}

const USAGE = `npm run bench [-- options]
  --large               also build n = 5,000 (skipped when the disk is too small)
  --only STEPS          comma list of ${STEPS.join(", ")} (default: all)
  --sizes LIST          build sizes, e.g. 100,500 (default 100,500,1000)
  --main-size N         catalog for incremental and serve (default: largest size ≤ 1000)
  --build-arg ARG       passed to every build; repeatable (e.g. --build-arg=--compress)
  --compress            same as --build-arg=--compress plus Accept-Encoding: br, gzip on the serve step
  --connections N       autocannon connections (default 20)
  --duration S          seconds per load run (default 5)
  --rounds N            load runs per host, alternating between hosts; the best counts (default 2)
  --keep                keep bench/out/ (built trees) afterwards`;

function positiveInt(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1, got "${text}"\n\n${USAGE}`);
  return n;
}

export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      large: { type: "boolean", default: false },
      only: { type: "string" },
      sizes: { type: "string" },
      "main-size": { type: "string" },
      "build-arg": { type: "string", multiple: true, default: [] },
      compress: { type: "boolean", default: false },
      connections: { type: "string", default: "20" },
      duration: { type: "string", default: "5" },
      rounds: { type: "string", default: "2" },
      keep: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const steps = (values.only?.split(",") ?? [...STEPS]).map((s) => s.trim());
  for (const s of steps) if (!(STEPS as readonly string[]).includes(s)) throw new Error(`--only: unknown step "${s}"\n\n${USAGE}`);
  const sizes = values.sizes
    ? values.sizes.split(",").map((s) => positiveInt("sizes", s.trim()))
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
    buildArgs: [...new Set(buildArgs)],
    acceptEncoding: values.compress ? "br, gzip" : null,
    connections: positiveInt("connections", values.connections),
    duration: positiveInt("duration", values.duration),
    rounds: positiveInt("rounds", values.rounds),
    keep: values.keep,
  };
}
