// `npm run serve` as a user runs it: a real process, a real port.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../../../scripts/hosts/free-port.ts";
import { builtSite } from "../../../helpers/build/built-site.ts";
import { repoRoot } from "../../../helpers/fs/dirs.ts";
import { serveProcess, waitFor } from "../../../helpers/hosts/serve-process.ts";
import { launchArgs } from "../../../helpers/process/launch.ts";

const serve = (dist: string, env: Record<string, string>) => serveProcess(["--dist", dist], env);

describe("npm run serve", () => {
  const site = builtSite();

  it("prints the API's URL when ready, answers on it, and exits 0 on SIGTERM", async () => {
    const run = serve(site.dist, { PORT: "0", HOST: "127.0.0.1" });
    await waitFor(() => /http:\/\/\S+\/v1/.test(run.output().stdout));
    const url = /(http:\/\/\S+\/v1)/.exec(run.output().stdout)![1]!;
    const res = await fetch(`${url}/categories`);
    expect(res.status).toBe(200);
    const docs = /Docs page: (http:\/\/\S+\/)/.exec(run.output().stdout)?.[1];
    expect(docs, "the docs page URL is printed too").toBeDefined();
    expect((await fetch(docs!)).headers.get("content-type")).toMatch(/^text\/html/);
    run.child.kill("SIGTERM");
    expect((await run.exited)[0]).toBe(0);
  });

  it("a taken port is a one-line error and exit 1, not a stack trace", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = serve(site.dist, { PORT: String(port), HOST: "127.0.0.1" });
      const [code] = await run.exited;
      expect(code).toBe(1);
      expect(run.output().stderr).toContain(`Port ${port} is already in use`);
      expect(run.output().stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });

  it("--port N listens on N, and wins over PORT", async () => {
    // PORT names a port already taken: listening there would fail, so an answer proves the flag won.
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const port = await freePort();
      const run = serveProcess(["--dist", site.dist, "--port", String(port), "--workers", "1"], {
        PORT: String(taken),
        HOST: "127.0.0.1",
      });
      await waitFor(() => /http:\/\/\S+\/v1/.test(run.output().stdout));
      expect(run.output().stdout).toContain(`:${port}/v1`);
      expect((await fetch(`http://127.0.0.1:${port}/v1/categories`)).status).toBe(200);
      run.child.kill("SIGTERM");
      expect((await run.exited)[0]).toBe(0);
    } finally {
      blocker.close();
    }
  });

  it("a --port that is no port number is one line and exit 2", async () => {
    const run = serveProcess(["--dist", site.dist, "--port", "http"], { HOST: "127.0.0.1" });
    const [code] = await run.exited;
    expect(code).toBe(2);
    expect(run.output().stderr.trim()).toBe('--port must be a whole number from 0 to 65535, got "http"');
  });

  it("an unknown flag is one line and exit 2", async () => {
    const child = spawn(process.execPath, launchArgs("scripts/commands/serve.ts", "--nope"), {
      cwd: repoRoot,
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("unknown option --nope");
  });

  it("a missing dist/ says to build first, exit 1", async () => {
    const run = serve(join(site.dir, "nothing-here"), { PORT: "0", HOST: "127.0.0.1" });
    const [code] = await run.exited;
    expect(code).toBe(1);
    expect(run.output().stderr).toContain("run `npm run build` first");
  });
});
