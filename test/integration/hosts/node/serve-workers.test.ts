// `npm run serve -- --workers 2`: two server processes on one port (node:cluster). Each follows every publication
// (B5), a worker that dies is replaced, and SIGTERM stops the whole group.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../../helpers/fs/dirs.ts";
import { publish, twoBuilds } from "../../../helpers/hosts/node/edit-fixture.ts";
import { serveProcess, waitFor } from "../../../helpers/hosts/serve-process.ts";

/** One GET on a connection of its own: the primary hands each new connection to the next worker in turn. */
function getFresh(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { Connection: "close" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The server workers among the processes whose parent is `pid` (Linux /proc); not tsx's esbuild, say. */
function workersOf(pid: number): number[] {
  return childrenOf(pid).filter((child) => {
    try {
      return /server-process[-.]/.test(readFileSync(`/proc/${child}/cmdline`, "utf8"));
    } catch {
      return false;
    }
  });
}

/** Pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      const stat = (() => {
        try {
          return readFileSync(`/proc/${p}/stat`, "utf8");
        } catch {
          return "";
        }
      })();
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
    })
    .map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const serve = (dist: string, workers: number) =>
  serveProcess(["--dist", dist, "--workers", String(workers)], { PORT: "0", HOST: "127.0.0.1" });

describe.runIf(existsSync("/proc/self/stat"))("npm run serve -- --workers 2", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let dist: string;
  let genB: string;

  beforeAll(async () => {
    dir = await tempDir();
    ({ genB, dist } = await twoBuilds(dir.path));
  });
  afterAll(() => dir.remove());

  it("on PORT=0 prints the real port, answers from two workers, follows a publication within 1 s in both, replaces a dead worker, and stops on SIGTERM", async () => {
    const run = serve(dist, 2);
    try {
      const api = (await waitFor(() => /(http:\/\/\S+\/v1)/.exec(run.output().stdout)))[1]!;
      expect(api).not.toMatch(/:0\//);
      const workers = workersOf(run.child.pid!);
      expect(workers).toHaveLength(2);
      const name = async () =>
        (JSON.parse((await getFresh(`${api}/software/alpha-mail`)).body) as { data: { name: string } }).data.name;
      // six fresh connections, handed out in turn: three to each worker
      const names = async () => Promise.all(Array.from({ length: 6 }, name));
      expect(new Set(await names())).toEqual(new Set(["alpha Mail"]));

      await publish(dist, genB);
      const published = Date.now();
      for (;;) {
        const seen = await names();
        if (seen.every((n) => n === "alpha Mail v2")) break;
        expect(Date.now() - published, `still old in a worker: ${seen}`).toBeLessThan(1_000);
      }

      process.kill(workers[0]!, "SIGKILL");
      const replaced = await waitFor(() => {
        const now = workersOf(run.child.pid!);
        return now.length === 2 && !now.includes(workers[0]!) && now;
      });
      expect(new Set(await names())).toEqual(new Set(["alpha Mail v2"]));
      expect(run.output().stderr).toContain("a server process exited (SIGKILL): starting another");

      run.child.kill("SIGTERM");
      expect((await run.exited)[0]).toBe(0);
      expect(replaced.filter(alive), "no worker outlives the primary").toEqual([]);
      await expect(getFresh(`${api}/categories`)).rejects.toThrow();
    } finally {
      if (run.child.exitCode === null) run.child.kill("SIGKILL");
    }
  });

  it("Ctrl-C (SIGINT to the whole group) stops every worker once, exit 0", async () => {
    const run = serve(dist, 2);
    await waitFor(() => /http:\/\/\S+\/v1/.test(run.output().stdout));
    const workers = workersOf(run.child.pid!);
    for (const pid of [run.child.pid!, ...workers]) process.kill(pid, "SIGINT");
    expect((await run.exited)[0]).toBe(0);
    await waitFor(() => !workers.some(alive), 5_000);
    expect(run.output().stdout.match(/stopping/g)).toHaveLength(1);
  });

  it("a missing build is one line and exit 1, as with one process", async () => {
    const run = serve(join(dir.path, "nothing-here"), 2);
    const [code] = await run.exited;
    expect(code).toBe(1);
    expect(run.output().stderr).toContain("run `npm run build` first");
    expect(run.output().stderr.trim().split("\n")).toHaveLength(1);
  });

  it("--workers 0 is a usage error, exit 2", async () => {
    const run = serve(dist, 0);
    const [code] = await run.exited;
    expect(code).toBe(2);
    expect(run.output().stderr).toContain("--workers must be a whole number from 1 to 64");
  });
});
