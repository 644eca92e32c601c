// Stopping long-running commands as Docker, systemd, pm2 and a terminal do: a signal to the npm process itself, not to
// the whole group. Each command runs through real npm on the tiny fixture; every process it started (npm's shell, the
// server, its workers, nginx, workerd) must be gone within a second, and its port closed.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { createConnection } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findNginx } from "../../../scripts/hosts/nginx/start.ts";
import { builtSite } from "../../helpers/build/built-site.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";

/** Every process below `root`, from /proc (parents before their children). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

const alive = (pid: number) => {
  try {
    // A zombie has been stopped: only its parent has not read its status yet.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

const accepts = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => done(!socket.destroy()));
    socket.once("error", () => done(false));
  });

async function within<T>(ms: number, check: () => T | Promise<T>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Started {
  npm: ChildProcess;
  port?: number;
  output: () => string;
}

/** `npm run <script> -- <args>` as a user types it (`input` on its standard input), ready once its output matches. */
async function startNpm(script: string, args: string[], ready: RegExp, input?: string): Promise<Started> {
  const npm = spawn("npm", ["run", "--silent", script, "--", ...args], {
    cwd: repoRoot,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (input) npm.stdin!.write(input);
  let output = "";
  npm.stdout!.on("data", (c: Buffer) => (output += c));
  npm.stderr!.on("data", (c: Buffer) => (output += c));
  const match = await within(60_000, () => ready.exec(output));
  if (!match) throw new Error(`npm run ${script} did not get ready:\n${output}`);
  return { npm, port: match[1] ? Number(match[1]) : undefined, output: () => output };
}

const site = builtSite({ prefix: "msapi-stop-" });

const URL_PORT = /http:\/\/(?:localhost|127\.0\.0\.1):(\d+)/;

const INITIALIZE = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "stop-test", version: "1" } },
})}\n`;

const commands: {
  script: string;
  /** the options that matter, for the test's name */
  label?: string;
  args: () => string[];
  ready: RegExp;
  input?: string;
  skip?: () => string | undefined;
}[] = [
  { script: "start", args: () => ["--content", site.content, "--dist", join(site.dir, "started")], ready: URL_PORT },
  { script: "serve", args: () => ["--dist", site.dist], ready: URL_PORT },
  { script: "serve", label: "--workers 1", args: () => ["--dist", site.dist, "--workers", "1"], ready: URL_PORT },
  { script: "dev", args: () => ["--content", site.content, "--out", join(site.dir, "dev")], ready: URL_PORT },
  {
    script: "start:nginx",
    args: () => ["--dist", site.dist],
    ready: URL_PORT,
    skip: () => (findNginx() ? undefined : "nginx is not installed"),
  },
  { script: "start:cloudflare", args: () => ["--dist", site.dist], ready: URL_PORT },
  // The MCP server says nothing on standard output until a client speaks: it answers an initialize request.
  { script: "mcp", args: () => ["--dist", site.dist], ready: /"protocolVersion"/, input: INITIALIZE },
];

describe("a signal to the npm process stops the command and everything it started, within a second", () => {
  for (const { script, label, args, ready, input, skip } of commands) {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const name = `npm run ${script}${label ? ` -- ${label}` : ""}: ${signal}`;
      it.skipIf(skip?.() !== undefined && process.env.CI !== "true")(name, async () => {
        const run = await startNpm(script, args(), ready, input);
        const tree = descendants(run.npm.pid!);
        expect(tree.length, run.output()).toBeGreaterThan(0);
        const exited = once(run.npm, "exit");
        process.kill(run.npm.pid!, signal);
        await exited;
        const left = await within(1_000, () => {
          const still = tree.filter(alive);
          return still.length === 0 ? [] : false;
        });
        expect(left, `still running a second after ${signal}:\n${run.output()}`).toEqual([]);
        if (run.port) expect(await accepts(run.port)).toBe(false);
      });
    }
  }
});
