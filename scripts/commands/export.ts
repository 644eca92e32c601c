// npm run export: the flags, then the static copy of a build for a file-only host (hosts/static/static-copy.ts).
import { resolve } from "node:path";
import { type CommandSpec, formatCount, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { formatBytes } from "../cli/format-bytes.ts";
import { DEFAULT_ALIGNED_LIMITS, parseLimits } from "../hosts/static/aligned-pages.ts";
import { isPublishHost, PUBLISH_HOSTS } from "../hosts/static/published-files.ts";
import { makeStaticCopy } from "../hosts/static/static-copy.ts";

const options = {
  dist: { type: "string", default: "dist", valueName: "DIR", description: "the build to export from" },
  out: { type: "string", valueName: "DIR", description: "the folder to write (required; must not exist, or be empty)" },
  host: {
    type: "string",
    default: "static",
    valueName: "HOST",
    description: `what the folder is for: ${Object.keys(PUBLISH_HOSTS).join(", ")} (adds that host's config files)`,
  },
  pages: {
    type: "string",
    default: "all",
    valueName: "MODE",
    description:
      "all: every list page of the build; aligned: only pages whose offset is a multiple of their limit, for --limits",
  },
  limits: {
    type: "string",
    valueName: "N,N…",
    description: `the page sizes of --pages aligned (default: ${DEFAULT_ALIGNED_LIMITS.join(",")})`,
  },
  json: { type: "boolean", default: false, description: "print the summary as one JSON object" },
} as const;

export const EXPORT: CommandSpec<typeof options> = {
  usage: "npm run export --",
  summary:
    "Copies the files a host serves from a build (the API bodies, the error bodies, the docs page and /404.html) " +
    "into a new folder to publish as it is; routes.json, the build manifest and other hosts' configs are left out.",
  options,
  notes: [
    "hosts: static = GitHub Pages, S3 or any file server; cloudflare-pages adds _headers; netlify adds _redirects and " +
      "_headers; serve = a preview with npx serve DIR (adds serve.json, which a file host would serve as a file)",
    "example: npm run build && npm run export -- --out public",
    "a large catalog on a file host: npm run export -- --out public --pages aligned (see docs/hosts/static-hosts.md)",
  ],
};

async function main(): Promise<void> {
  const values = parseCommandArgs(EXPORT);
  if (!values.out)
    throw new UserError("--out DIR is required: the folder to publish (usage: npm run export -- --out DIR)", 2);
  if (!isPublishHost(values.host))
    throw new UserError(`unknown --host ${values.host}: one of ${Object.keys(PUBLISH_HOSTS).join(", ")}`, 2);
  if (values.pages !== "all" && values.pages !== "aligned")
    throw new UserError(`unknown --pages ${values.pages}: all or aligned`, 2);
  if (values.limits !== undefined && values.pages !== "aligned")
    throw new UserError("--limits goes with --pages aligned", 2);
  const limits =
    values.pages === "aligned"
      ? values.limits === undefined
        ? DEFAULT_ALIGNED_LIMITS
        : parseLimits(values.limits)
      : undefined;
  const result = await makeStaticCopy(resolve(values.dist), resolve(values.out), values.host, limits);
  if (values.json) console.log(JSON.stringify({ ok: true, ...result, out: values.out }));
  else
    console.log(
      `exported ${formatCount(result.served)} served files (${formatBytes(result.servedBytes)}) and ` +
        (result.hostFiles.length === 0
          ? "no host file "
          : `${result.hostFiles.length} host file${result.hostFiles.length === 1 ? "" : "s"} (${result.hostFiles.join(", ")}) `) +
        `for ${values.host} from ${values.dist}/ to ${values.out}/` +
        (limits ? `, list pages aligned to limits ${limits.join(", ")}` : ""),
    );
}

if (isMain(import.meta.url)) void runCommand(main, { json: () => process.argv.includes("--json") });
