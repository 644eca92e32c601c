// Where MCP is answered and who may ask (M4), without the SDK: the hosts test every request against this, and load
// the MCP server itself (mcp/http.ts, the SDK and zod: most of a second of a server's start) only for the first
// request to /mcp. Web APIs only.
import { MCP_PATH } from "../api/runtime/route-table.ts";

export { MCP_PATH };

/** Whether a request target (origin-form or absolute-form, any query) is the MCP endpoint: its raw path exactly, as
 *  the docs assets are matched (no decoding, no trailing slash). */
export function isMcpTarget(target: string): boolean {
  const path = target.startsWith("/") ? target : target.replace(/^https?:\/\/[^/?#]*/i, "");
  const end = path.indexOf("?");
  return (end === -1 ? path : path.slice(0, end)) === MCP_PATH;
}

/** An Origin whose host is loopback: localhost (and *.localhost), 127.0.0.0/8, [::1]. `null` (an opaque origin) is
 *  not. */
export function isLoopbackOrigin(origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** A listen address only this machine can reach. */
export function isLoopbackAddress(address: string): boolean {
  return address === "localhost" || address === "::1" || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}
