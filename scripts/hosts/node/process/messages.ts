// What a cluster's primary (primary.ts) and its server processes (server-process.ts) tell each other over IPC.

/** What the primary tells a server process to serve, in its environment. */
export interface ServerProcessConfig {
  distDir: string;
  port: number;
  host: string;
  cacheBytes: number;
}

export const SERVER_PROCESS_CONFIG_ENV = "MSAPI_SERVE_WORKER";

export type FromServerProcess =
  | { type: "listening"; url: string; basePath: string }
  | { type: "failed"; code?: string; message: string }
  /** this server process serves a newly published build now: the others should look at once */
  | { type: "switched" };

export type ToServerProcess = { type: "refresh" } | { type: "stop" };
