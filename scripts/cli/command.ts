// B6 for every command: --help, a bad flag as one line (exit 2), expected failures as one line (exit 1), never a
// stack trace for what a user can fix; with --json, the answer is one JSON object whatever happens.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { nearestName } from "./nearest-name.ts";

/** A failure the user can act on: printed as its message alone. */
export class UserError extends Error {
  constructor(
    message: string,
    /** process exit code: 1 for a failed command, 2 for bad usage */
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig["options"]>;

export interface CommandSpec<O extends Options> {
  /** e.g. "npm run build --" */
  usage: string;
  /** one paragraph: what the command does */
  summary: string;
  /** flag name → option (node:util parseArgs) plus a description for --help */
  options: { [K in keyof O]: O[K] & { description: string; valueName?: string } };
  /** extra lines after the option list: environment variables, examples */
  notes?: readonly string[];
}

type Values<O extends Options> = ReturnType<
  typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>
>["values"];

/** The help text: usage, summary, one line per option. */
export function helpText<O extends Options>(spec: CommandSpec<O>): string {
  const rows = Object.entries(spec.options).map(([name, o]) => {
    const flag = `--${name}${o.type === "string" ? ` ${o.valueName ?? "VALUE"}` : ""}`;
    const fallback = o.default !== undefined && o.type === "string" ? ` (default: ${String(o.default)})` : "";
    return [flag, o.description + fallback] as const;
  });
  rows.push(["--help", "show this help"]);
  const width = Math.max(...rows.map(([f]) => f.length));
  return [
    `usage: ${spec.usage} [options]`,
    "",
    spec.summary,
    "",
    "options:",
    ...rows.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`),
    ...(spec.notes ? ["", ...spec.notes] : []),
  ].join("\n");
}

const shortUsage = (usage: string) => `usage: ${usage} [options]; --help lists them`;

/** Parses argv; `--help` prints help and exits 0; a bad flag throws UserError(exit 2) with one line. */
export function parseCommandArgs<O extends Options>(spec: CommandSpec<O>, argv = process.argv.slice(2)): Values<O> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(helpText(spec));
    process.exit(0);
  }
  const swallowed = takenByNpm(spec, argv);
  if (swallowed) {
    const script = process.env.npm_lifecycle_event!;
    const command = script === "start" || script === "test" ? `npm ${script}` : `npm run ${script}`;
    throw new UserError(
      `npm took ${swallowed} for itself: put the command's options after --, as in: ${command} -- ${swallowed}`,
      2,
    );
  }
  try {
    const { values } = parseArgs({ args: argv, options: spec.options as O, strict: true, allowPositionals: false });
    return values as Values<O>;
  } catch (e) {
    // node's messages are long and mention parseArgs internals; say which flag and how to get help.
    const message = (e as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
    const missing = /Option '([^']+?)(?: <value>)?' argument missing/.exec(message)?.[1];
    const positional = /Unexpected argument '([^']+)'/.exec(message)?.[1];
    const guess = unknown && nearestOption(unknown, [...Object.keys(spec.options), "help"]);
    const what = unknown
      ? `unknown option ${unknown}${guess ? ` (did you mean --${guess}?)` : ""}`
      : missing
        ? `option ${missing.split(",").pop()!.trim()} needs a value`
        : positional
          ? `unexpected argument ${positional}`
          : message.split("\n")[0]!;
    throw new UserError(`${what} (${shortUsage(spec.usage)})`, 2);
  }
}

/**
 * An option npm kept for itself: `npm run new:tool --name Foo` (no `--`) hands the script nothing but sets
 * npm_config_name=Foo. Told apart from what the command was given, and only under npm.
 */
function takenByNpm(spec: CommandSpec<Options>, argv: string[]): string | undefined {
  if (process.env.npm_lifecycle_event === undefined) return undefined;
  for (const name of Object.keys(spec.options)) {
    const value = process.env[`npm_config_${name.replace(/-/g, "_")}`];
    if (value === undefined || value === "" || argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`)))
      continue;
    // npm keeps a flag it reads as boolean ("true") and leaves the value to the script's arguments.
    const given =
      value === "true" && spec.options[name]?.type === "string" ? argv.find((a) => !a.startsWith("-")) : value;
    return given === undefined || given === "true"
      ? `--${name}`
      : `--${name} ${/^[\w./:@-]+$/.test(given) ? given : JSON.stringify(given)}`;
  }
  return undefined;
}

/** The declared option a misspelled one (`--jsn`, `--hepl=1`) most likely meant. */
export const nearestOption = (given: string, names: string[]): string | undefined =>
  nearestName(given.replace(/^-+/, "").split("=")[0]!, names);

/** Filesystem errors a user can fix, as one line naming the path. */
export function describeFsError(e: unknown): string | undefined {
  const err = e as NodeJS.ErrnoException;
  const path = err?.path ? ` ${err.path}` : "";
  switch (err?.code) {
    case "ENOSPC":
      return `no space left on the device writing${path}`;
    case "EDQUOT":
      return `disk quota exceeded writing${path}`;
    case "EACCES":
    case "EPERM":
      return `permission denied:${path || " (unknown path)"}`;
    case "EROFS":
      return `read-only file system:${path}`;
    case "ENOENT":
      return `no such file or directory:${path}`;
    case "ENOTDIR":
      return `not a directory:${path}`;
    case "EMFILE":
    case "ENFILE":
      return `too many open files${path ? ` (at${path})` : ""}: raise the limit with ulimit -n`;
    default:
      return undefined;
  }
}

/**
 * Runs a command's main: UserError and known filesystem errors print one line (or one JSON object with --json)
 * and set the exit code; anything else is a bug and keeps its stack trace.
 */
export async function runCommand(
  main: () => Promise<number | undefined> | Promise<void>,
  options: { json?: () => boolean } = {},
): Promise<void> {
  try {
    process.exitCode = (await main()) ?? 0;
  } catch (e) {
    const line = e instanceof UserError ? e.message : describeFsError(e);
    if (line === undefined) throw e;
    if (options.json?.()) console.log(JSON.stringify({ ok: false, error: line }));
    else console.error(line);
    process.exitCode = e instanceof UserError ? e.exitCode : 1;
  }
}

/** True when this module is the process's entry point (so a script can also be imported by tests). */
export function isMain(importMetaUrl: string): boolean {
  if (!process.argv[1]) return false;
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  // Through a symlinked folder argv[1] and the module's URL name the same file differently.
  return real(process.argv[1]) === real(fileURLToPath(importMetaUrl));
}

/** 1234567 → "1,234,567", as toLocaleString("en-US") writes it, without loading ICU (its first use is slow). */
export const formatCount = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
