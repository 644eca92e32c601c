// A Node server in its own process (its own descriptor limit), for the hostile-input tests.
// argv: distDir headersTimeoutMs. Prints its URL on one line when listening.
// No top-level await: the launcher runs CommonJS bundles (scripts/launcher/bundle-cache.cjs).
import { startServer } from "../../../../scripts/hosts/node/server/start-server.ts";

const [distDir, headers] = process.argv.slice(2);
void startServer({
  distDir: distDir!,
  port: 0,
  timeouts: headers ? { headers: Number(headers), request: 2 * Number(headers) } : {},
}).then((server) => {
  console.log(`listening ${server.url}`);
  process.once("SIGTERM", () => void server.close().then(() => process.exit(0)));
});
