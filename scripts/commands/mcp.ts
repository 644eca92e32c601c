// npm run mcp: the flags, then the MCP server on stdin/stdout (scripts/mcp/server.ts). Standard output carries the
// protocol alone.
import { type CommandSpec, isMain, parseCommandArgs, runCommand } from "../cli/command.ts";
import { serveMcp } from "../mcp/server.ts";

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
    "the HTTP API answers for the same request (search_software also takes several words), and find_software says " +
    "which tools fit (category, MCP server, API, integrations, free plan, budget, rating) in one call. Started by an " +
    "MCP client, not by hand.",
  options,
  notes: [
    "--silent keeps npm's own banner off standard output, which carries the protocol alone.",
    "Agents that connect by URL use /mcp of the Node server or the Worker instead (docs/guide/mcp.md).",
  ],
};

async function main(): Promise<void> {
  await serveMcp(parseCommandArgs(MCP));
}

if (isMain(import.meta.url)) void runCommand(main);
