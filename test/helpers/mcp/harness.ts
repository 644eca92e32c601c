// Starts the MCP server as a real subprocess, talked to by the SDK's own Client over stdio.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { repoRoot } from "../fs/dirs.ts";
import { launchArgs } from "../process/launch.ts";

export interface McpSession {
  client: Client;
  /** anything on the server's stdout that is not a protocol message lands here (as does any transport error) */
  transportErrors: string[];
  close(): Promise<void>;
}

/** The server as a user starts it (`npm run --silent mcp -- …`), or through node directly, a second faster. */
export async function startMcp(args: string[], via: "npm" | "node" = "npm"): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: via === "npm" ? "npm" : process.execPath,
    args: via === "npm" ? ["run", "--silent", "mcp", "--", ...args] : launchArgs("scripts/commands/mcp.ts", ...args),
    cwd: repoRoot,
    stderr: "pipe",
  });
  const client = new Client({ name: "catalog-mcp-test", version: "1.0.0" });
  const transportErrors: string[] = [];
  client.onerror = (e) => transportErrors.push(e.message);
  await client.connect(transport);
  return { client, transportErrors, close: () => client.close() };
}

/** The slugs of a content folder's tools or categories, read from its file names (the test's own oracle). */
export async function slugsIn(contentDir: string, kind: "tools" | "categories"): Promise<string[]> {
  return (await readdir(join(contentDir, kind)))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();
}
