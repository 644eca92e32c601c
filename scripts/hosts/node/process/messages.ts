// What a cluster's primary (cluster-primary.ts) and its workers (cluster-worker.ts) tell each other over IPC.

/** What the primary tells a worker to serve, in its environment. */
export interface WorkerConfig {
  distDir: string;
  port: number;
  host: string;
  cacheBytes: number;
}

export const WORKER_CONFIG_ENV = "MSAPI_SERVE_WORKER";

export type FromWorker =
  | { type: "listening"; url: string; basePath: string }
  | { type: "failed"; code?: string; message: string }
  /** this worker serves a newly published build now: the others should look at once */
  | { type: "switched" };

export type ToWorker = { type: "refresh" } | { type: "stop" };
