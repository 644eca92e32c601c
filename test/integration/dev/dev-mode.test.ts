// `npm run dev` as a user runs it, on a copy of the tiny fixture: an edit is served, a bad edit prints its content
// error while the last good build keeps serving, and the fix is served, all without a restart.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "../../helpers/fs/dirs.ts";
import { copyTiny } from "../../helpers/hosts/node/edit-fixture.ts";
import { waitFor } from "../../helpers/process/wait-for.ts";

describe("npm run dev", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let child: ReturnType<typeof spawn>;
  let stdout = "";
  let stderr = "";
  let api: string;
  let toolFile: string;

  beforeAll(async () => {
    dir = await tempDir();
    const content = await copyTiny(join(dir.path, "content"));
    toolFile = join(content, "tools/alpha-mail.json");
    // its own process group, so the whole npm → tsx → node chain stops together
    child = spawn("npm", ["run", "--silent", "dev", "--", "--content", content, "--out", join(dir.path, "dist")], {
      cwd: repoRoot,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
      detached: true,
    });
    child.stdout!.on("data", (c: Buffer) => (stdout += c));
    child.stderr!.on("data", (c: Buffer) => (stderr += c));
    api = await waitFor("the API URL", () => /API: (http:\/\/\S+\/v1)/.exec(stdout)?.[1], 60_000);
    // the docs line follows the API line; a pipe may hand them over in two reads
    await waitFor("the docs page URL", () => (stdout.includes("Docs page:") ? true : undefined));
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = once(child, "exit");
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
    await dir.remove();
  });

  const nameServed = async () => {
    const res = await fetch(`${api}/software/alpha-mail`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { name: string } }).data.name;
  };
  const edit = async (change: (tool: Record<string, unknown>) => void) => {
    const tool = JSON.parse(await readFile(toolFile, "utf8")) as Record<string, unknown>;
    change(tool);
    await writeFile(toolFile, JSON.stringify(tool, null, 2));
  };

  it("prints the docs page URL beside the API URL", async () => {
    expect(stdout).toMatch(/Docs page: http:\/\/\S+\//);
    const docs = /Docs page: (http:\/\/\S+)/.exec(stdout)![1]!;
    expect((await fetch(docs)).headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("serves an edit, keeps the last good build through a bad edit, and serves the fix", async () => {
    expect(await nameServed()).toBe("alpha Mail");

    await edit((t) => (t.name = "alpha Mail Edited"));
    await waitFor("the edit to be served", async () =>
      (await nameServed()) === "alpha Mail Edited" ? true : undefined,
    );

    const errorsBefore = stderr.length;
    await edit((t) => {
      t.name = "alpha Mail Broken";
      t.rating = 9.5;
    });
    const printed = await waitFor("the content error", () => {
      const since = stderr.slice(errorsBefore);
      return /alpha-mail\.json: rating/.test(since) && /last good build/.test(since) ? since : undefined;
    });
    expect(printed).toMatch(/last good build/);
    expect(printed).not.toMatch(/\n\s+at /); // no stack trace
    expect(await nameServed()).toBe("alpha Mail Edited");

    await edit((t) => {
      t.name = "alpha Mail Fixed";
      t.rating = 4;
    });
    await waitFor("the fix to be served", async () => ((await nameServed()) === "alpha Mail Fixed" ? true : undefined));
    expect(child.exitCode).toBeNull();
  });
});

describe("npm run dev -- --layout runs", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let child: ReturnType<typeof spawn>;
  let stdout = "";
  let api: string;

  beforeAll(async () => {
    dir = await tempDir();
    const content = await copyTiny(join(dir.path, "content"));
    const args = ["--content", content, "--out", join(dir.path, "dist"), "--layout", "runs"];
    child = spawn("npm", ["run", "--silent", "dev", "--", ...args], {
      cwd: repoRoot,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
      detached: true,
    });
    child.stdout!.on("data", (c: Buffer) => (stdout += c));
    api = await waitFor("the API URL", () => /API: (http:\/\/\S+\/v1)/.exec(stdout)?.[1], 60_000);
    await waitFor("the watcher", () => (stdout.includes("for changes") ? true : undefined));
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = once(child, "exit");
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
    await dir.remove();
  });

  it("builds each list once (no page file) and serves an edit in the list's pages", async () => {
    const index = JSON.parse(await readFile(join(dir.path, "dist", "build-index.json"), "utf8")) as { layout: string };
    expect(index.layout).toBe("runs");
    await expect(stat(join(dir.path, "dist", "v1", "software", "pages"))).rejects.toThrow();
    const toolFile = join(dir.path, "content", "tools", "alpha-mail.json");
    const tool = JSON.parse(await readFile(toolFile, "utf8")) as Record<string, unknown>;
    await writeFile(toolFile, JSON.stringify({ ...tool, name: "alpha Mail Runs" }, null, 2));
    const names = async () =>
      ((await (await fetch(`${api}/software?limit=100`)).json()) as { data: { name: string }[] }).data.map(
        (t) => t.name,
      );
    await waitFor("the edit in the list", async () => ((await names()).includes("alpha Mail Runs") ? true : undefined));
  });
});
