// The serve step's ceiling: a bare node:http server answering every request with one fixed response from memory.
// It sends the headers every API response must carry (H1–H3, from the route table) so that the ratio measures what
// the Node server adds (routing, file lookup, conditional requests), not the bytes the contract requires.
// With WORKERS it runs as many processes sharing the port (node:cluster, round robin), as the Node server does, so the
// ratio compares like with like.
// Run as its own process: PORT=… [WORKERS=N] node --import tsx bench/hosts/ceiling-server.ts BODY_FILE
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import type { RouteTable } from "../../scripts/api/runtime/route-table.ts";

const file = process.argv[2];
if (!file) throw new Error("usage: ceiling-server.ts BODY_FILE (PORT from the environment)");
const body = readFileSync(file);
// BODY_FILE lies inside a built dist/: its routes.json is found by walking up.
let dir = dirname(file);
while (!existsIn(dir, "routes.json")) dir = dirname(dir);
const table = JSON.parse(readFileSync(join(dir, "routes.json"), "utf8")) as RouteTable;
const headers = [
  ...Object.entries(table.headers.all).flat(),
  ...Object.entries(table.headers.success).flat(),
  "ETag",
  '"ceiling-fixed-etag-0000"',
  "Content-Length",
  String(body.byteLength),
];

const workers = Number(process.env.WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  for (let i = 0; i < workers; i++) cluster.fork();
  process.once("SIGTERM", () => process.exit(0)); // workers exit with the primary's IPC channel
} else {
  createServer({ keepAliveTimeout: 5_000 }, (_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  }).listen(Number(process.env.PORT), "127.0.0.1");
}

function existsIn(folder: string, name: string): boolean {
  if (folder === dirname(folder)) throw new Error(`no routes.json above ${file}`);
  try {
    readFileSync(join(folder, name));
    return true;
  } catch {
    return false;
  }
}
