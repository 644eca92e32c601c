// npm run mirror -- --from URL --out DIR: a local copy of a deployed API, kept in step through its hash tree.
import { resolve } from "node:path";
import { type CommandSpec, formatCount, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { DEFAULT_FETCH } from "../mirror/fetch-retry.ts";
import { mirrorSummary } from "../mirror/summary.ts";
import { updateMirror } from "../mirror/update-mirror.ts";

const options = {
  from: {
    type: "string",
    valueName: "URL",
    description: "the API's base address, e.g. https://api.example.com/v1 (required)",
  },
  out: { type: "string", valueName: "DIR", description: "the local copy: a link to the last complete copy (required)" },
  concurrency: {
    type: "string",
    default: String(DEFAULT_FETCH.concurrency),
    valueName: "N",
    description: "requests in flight at once",
  },
  json: { type: "boolean", default: false, description: "print the result as one JSON object" },
} as const;

export const MIRROR: CommandSpec<typeof options> = {
  usage: "npm run mirror --",
  summary:
    "Copies a deployed API into a local folder, then keeps it in step: each run fetches the hash tree's root (with " +
    "If-None-Match), the shards whose hash changed, the bodies whose hash changed and the pieces the copy does not " +
    "hold, checks every one by its SHA-256, and switches the copy in one step. The copy is a runs build: each list " +
    "once, joined from its pieces; `npm run serve -- --dist DIR` answers from it and `npm run export -- --dist DIR` " +
    "turns it into a page tree. A run that fails or is killed leaves the previous copy whole; the next run keeps what " +
    "it had fetched. See docs/guide/search-export-sync.md.",
  options,
  notes: [
    "Retries 429 and 5xx answers, dropped connections, cut answers and passed deadlines with backoff and jitter (Retry-After honoured): 8 attempts a request, none after 40 s.",
    "Exit status: 0 in step, 1 failed (the previous copy is kept), 2 bad flags.",
    "example: npm run mirror -- --from http://localhost:3000/v1 --out mirror",
  ],
};

async function main(): Promise<void> {
  const values = parseCommandArgs(MIRROR);
  if (!values.from || !values.out)
    throw new UserError("--from URL and --out DIR are required (usage: npm run mirror -- --from URL --out DIR)", 2);
  let from: URL;
  try {
    from = new URL(values.from);
  } catch {
    throw new UserError(
      `--from ${values.from} is not a URL: give the API's base address, e.g. http://localhost:3000/v1`,
      2,
    );
  }
  if (from.protocol !== "http:" && from.protocol !== "https:")
    throw new UserError(`--from ${values.from}: only http and https addresses can be mirrored`, 2);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    throw new UserError(`--concurrency ${values.concurrency}: a whole number from 1 to 64`, 2);
  const progress = values.json || !process.stderr.isTTY ? undefined : process.stderr;
  const result = await updateMirror(from.href, resolve(values.out), {
    fetch: { ...DEFAULT_FETCH, concurrency },
    onProgress:
      progress && ((done, total) => progress.write(`\r${formatCount(done)} of ${formatCount(total)} bodies…`)),
  });
  progress?.write("\r\x1b[K");
  if (values.json) console.log(JSON.stringify({ ok: true, out: values.out, ...result }));
  else console.log(mirrorSummary(values.from, values.out, result));
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => process.argv.includes("--json") });
