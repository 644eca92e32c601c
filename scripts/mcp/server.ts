// npm run mcp: the catalog as a Model Context Protocol server on stdin/stdout (M1), over a built dist/ or a deployed
// API. Standard output carries the protocol alone: every other line goes to standard error.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { onStopRequest } from "../cli/stop.ts";
import { createDistSource } from "./dist-source.ts";
import { createHttpSource, normalizeBaseUrl } from "./http-source.ts";
import { type CatalogSource, SourceUnavailable } from "./source.ts";
import { createCatalogServer } from "./tools.ts";

const options = {
  dist: {
    type: "string",
    valueName: "DIR",
    description: "the built catalog to answer from (default: dist); a rebuild is seen at once",
  },
  "base-url": {
    type: "string",
    valueName: "URL",
    description:
      "answer from a deployed API instead, its address ending in the base path (e.g. https://api.example.com/v1)",
  },
} as const;

export const MCP: CommandSpec<typeof options> = {
  usage: "npm run --silent mcp --",
  summary:
    "Serves the catalog to AI agents as a Model Context Protocol server over standard input and output, read-only: " +
    "tools list_software, get_software, list_categories, get_best_in_category and search_software answer exactly what " +
    "the HTTP API answers for the same request (search_software also takes several words). Started by an MCP client, " +
    "not by hand.",
  options,
  notes: ["--silent keeps npm's own banner off standard output, which carries the protocol alone."],
};

async function packageVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/** The source the flags name; a missing or unreadable build is one line, exit 1, before any protocol starts. */
export async function sourceFromFlags(flags: { dist?: string; "base-url"?: string }): Promise<CatalogSource> {
  if (flags.dist !== undefined && flags["base-url"] !== undefined) {
    throw new UserError(
      "give --dist or --base-url, not both (usage: npm run --silent mcp -- [options]; --help lists them)",
      2,
    );
  }
  if (flags["base-url"] !== undefined) {
    try {
      return createHttpSource(normalizeBaseUrl(flags["base-url"]));
    } catch (e) {
      throw new UserError((e as Error).message, 2);
    }
  }
  const source = createDistSource(resolve(flags.dist ?? "dist"));
  try {
    await source.root();
  } catch (e) {
    if (e instanceof SourceUnavailable) throw new UserError(e.message);
    throw e;
  }
  return source;
}

async function main(): Promise<void> {
  const source = await sourceFromFlags(parseCommandArgs(MCP));
  const server = createCatalogServer(source, await packageVersion());
  // Standard output carries the protocol alone: stopping says nothing there.
  onStopRequest(() => server.close(), { log: null });
  // Runs until the client closes standard input (or asks it to stop); nothing else keeps the process alive.
  await server.connect(new StdioServerTransport());
}

if (isMain(import.meta.url)) void runCommand(main);
