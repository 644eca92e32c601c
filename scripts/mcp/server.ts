// The catalog as a Model Context Protocol server on stdin/stdout (M1), over a built dist/ or a deployed API
// (`npm run mcp`: scripts/commands/mcp.ts). Standard output carries the protocol alone: every other line goes to
// standard error.
import { resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { UserError } from "../cli/command.ts";
import { onStopRequest } from "../cli/stop.ts";
import { createDistSource } from "./dist-source.ts";
import { createHttpSource, normalizeBaseUrl } from "./http-source.ts";
import { packageVersion } from "./package-version.ts";
import { type CatalogSource, SourceUnavailable } from "./source.ts";
import { createCatalogServer } from "./tools.ts";

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

/** Serves the catalog the flags name over standard input and output until the client closes them or asks it to stop. */
export async function serveMcp(flags: { dist?: string; "base-url"?: string }): Promise<void> {
  const source = await sourceFromFlags(flags);
  const server = createCatalogServer(source, packageVersion());
  // Standard output carries the protocol alone: stopping says nothing there.
  onStopRequest(() => server.close(), { log: null });
  // Runs until the client closes standard input (or asks it to stop); nothing else keeps the process alive.
  await server.connect(new StdioServerTransport());
}
