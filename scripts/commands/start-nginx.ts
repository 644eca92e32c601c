// npm run start:nginx: the flags, then the real nginx over a built dist/ (hosts/nginx/start.ts) until stopped.
// `PORT=8080 npm run start:nginx [-- --dist DIR]`; HOST (default 127.0.0.1) picks the interface.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { onStopRequest } from "../cli/stop.ts";
import { findNginx, startNginx } from "../hosts/nginx/start.ts";

const START_NGINX = {
  usage: "npm run start:nginx --",
  summary:
    "Serves a built dist/ with the real nginx, configured only by dist/nginx/*.conf (generated from the route table).",
  options: { dist: { type: "string", default: "dist", valueName: "DIR", description: "the build to serve" } },
  notes: [
    "environment: PORT (default 8080), HOST (default 127.0.0.1), NGINX_BIN (the nginx binary), NGINX_JS_MODULE (its JavaScript module, which a runs build needs)",
  ],
} as const;

async function main(): Promise<void> {
  const values = parseCommandArgs(START_NGINX);
  const distDir = resolve(values.dist);
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UserError(`PORT must be a whole number from 0 to 65535, got "${process.env.PORT}"`);
  if (!findNginx()) throw new UserError("nginx is not installed: apt-get install nginx-light, or set NGINX_BIN");
  const server = await startNginx({ distDir, port, host: process.env.HOST ?? "127.0.0.1", stderr: "inherit" });
  const { basePath } = JSON.parse(await readFile(join(distDir, "routes.json"), "utf8")) as { basePath: string };
  console.log(`nginx serving ${values.dist}/ at ${server.url}${basePath} (Ctrl-C stops it)`);
  let stopping = false;
  onStopRequest(() => {
    stopping = true;
    return server.close();
  });
  server.exited.then(() => {
    if (stopping) return;
    console.error("nginx exited unexpectedly");
    server.close().then(() => process.exit(1));
  });
}

if (isMain(import.meta.url)) {
  // Anything nginx itself refuses (a taken port, a bad config) is already one line from startNginx.
  void runCommand(async () => {
    try {
      await main();
    } catch (e) {
      throw e instanceof UserError ? e : new UserError((e as Error).message);
    }
  });
}
