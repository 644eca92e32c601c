// Starting the Node server from a command: the listening errors a user can fix as one line, and the URLs to open.
import { UserError } from "../cli/command.ts";
import { startServer, type RunningServer, type ServerOptions } from "./start-server.ts";

/** PORT and HOST from the environment, as every serving command reads them. */
export function listenAddressFromEnv(defaultPort = 3000): { port: number; host: string } {
  const port = Number(process.env.PORT ?? defaultPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UserError(`PORT must be a whole number from 0 to 65535, got "${process.env.PORT}"`);
  return { port, host: process.env.HOST ?? "localhost" };
}

/** startServer, with a taken port, a refused port and a missing build as one-line UserErrors. */
export async function startServerForUser(options: ServerOptions): Promise<RunningServer> {
  try {
    return await startServer(options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "EADDRINUSE") throw new UserError(`Port ${options.port} is already in use: stop what runs there, or set PORT=<another port>.`);
    if (err.code === "EACCES") throw new UserError(`Not allowed to listen on port ${options.port}: choose PORT above 1023.`);
    throw new UserError(err.message);
  }
}

/** The two lines a user needs: the API's base URL and the docs page at the site root. */
export function urlLines(server: RunningServer): string[] {
  const shown = server.url.replace(/\/\/(127\.0\.0\.1|\[::1\])(?=:)/, "//localhost");
  return [`Marketing Software Data API: ${shown}${server.basePath}  (Ctrl-C to stop)`, `Docs page: ${shown}/`];
}

/** Stops the server on Ctrl-C or SIGTERM, then exits 0. */
export function stopOnSignals(stop: () => Promise<void>): void {
  const onSignal = (signal: string) => {
    console.log(`\n${signal}: stopping`);
    void stop().then(() => process.exit(0));
  };
  process.once("SIGINT", () => onSignal("SIGINT"));
  process.once("SIGTERM", () => onSignal("SIGTERM"));
}
