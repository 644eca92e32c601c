// npm run serve (and the second half of npm start): serves dist/ at http://localhost:3000/v1.
// PORT and HOST override; --dist DIR serves another build.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { startServer } from "./server/start-server.ts";

const { values } = parseArgs({ options: { dist: { type: "string", default: "dist" } } });
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "localhost";

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a whole number from 0 to 65535, got "${process.env.PORT}"`);
  process.exit(1);
}

try {
  const server = await startServer({ distDir: resolve(values.dist), port, host });
  const shown = server.url.replace(/\/\/(127\.0\.0\.1|\[::1\])(?=:)/, "//localhost");
  console.log(`Marketing Software Data API: ${shown}${server.basePath}  (Ctrl-C to stop)`);
  const stop = (signal: string) => {
    console.log(`\n${signal}: stopping`);
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
} catch (e) {
  const err = e as NodeJS.ErrnoException;
  if (err.code === "EADDRINUSE") console.error(`Port ${port} is already in use: stop what runs there, or set PORT=<another port>.`);
  else if (err.code === "EACCES") console.error(`Not allowed to listen on port ${port}: choose PORT above 1023.`);
  else console.error(err.message);
  process.exit(1);
}
