// The version the MCP server reports (serverInfo.version): the package's, the same over stdio, the Node server and
// the Worker (whose bundle gets it written in by the build: hosts/cloudflare/adapter.ts).
import { readFileSync } from "node:fs";

let version: string | undefined;

export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string })
    .version;
  return version;
}
