// Node built-ins that most builds never use (background deletion, worker threads, compression), loaded on first
// use: importing them up front cost each run a few milliseconds of a half-second one-file rebuild.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export const childProcess = (): typeof import("node:child_process") => require("node:child_process");
export const workerThreads = (): typeof import("node:worker_threads") => require("node:worker_threads");
export const zlib = (): typeof import("node:zlib") => require("node:zlib");
