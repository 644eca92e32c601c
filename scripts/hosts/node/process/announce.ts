// Starting the Node server from a command: the listening errors a user can fix as one line, and the URLs to open.
import { UserError } from "../../../cli/command.ts";
import type { RunningServer, ServerOptions } from "../server/start-server.ts";

/** PORT and HOST from the environment, as every serving command reads them; a `--port` flag wins over PORT. */
export function listenAddressFromEnv(defaultPort = 3000, portFlag?: string): { port: number; host: string } {
  const [given, name] = portFlag !== undefined ? [portFlag, "--port"] : [process.env.PORT, "PORT"];
  // A flag's value must be digits: Number("") is 0, which would pick any free port.
  const port =
    given === undefined ? defaultPort : portFlag !== undefined && !/^\d+$/.test(given) ? Number.NaN : Number(given);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UserError(
      `${name} must be a whole number from 0 to 65535, got "${given}"`,
      portFlag === undefined ? 1 : 2,
    );
  return { port, host: process.env.HOST ?? "localhost" };
}

/** A failure to start listening (a taken port, a refused port, a missing build) as the one line a user can act on. */
export function startFailure(err: { code?: string; message: string }, port: number | undefined): UserError {
  if (err.code === "EADDRINUSE")
    return new UserError(`Port ${port} is already in use: stop what runs there, or set PORT=<another port>.`);
  if (err.code === "EACCES") return new UserError(`Not allowed to listen on port ${port}: choose PORT above 1023.`);
  return new UserError(err.message);
}

/** startServer, with its expected failures as one-line UserErrors. Imported on use: a cluster's primary never loads the server. */
export async function startServerForUser(options: ServerOptions): Promise<RunningServer> {
  const { startServer } = await import("../server/start-server.ts");
  try {
    return await startServer(options);
  } catch (e) {
    throw startFailure(e as NodeJS.ErrnoException, options.port);
  }
}

/** The two lines a user needs, the API's base URL and the docs page at the site root, printed in one write: a reader
 * of the pipe never sees the first without the second. */
export function printUrls(server: Pick<RunningServer, "url" | "basePath">): void {
  const shown = server.url.replace(/\/\/(127\.0\.0\.1|\[::1\])(?=:)/, "//localhost");
  console.log(`Marketing Software Data API: ${shown}${server.basePath}  (Ctrl-C to stop)\nDocs page: ${shown}/`);
}
