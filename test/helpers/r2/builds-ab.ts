// Two builds of the tiny fixture for the R2 tests, A and B, where every target below answers differently (another
// site address, one tool more), and what those tests do with them: ask the Worker, run the real upload command
// (whole, or killed at an instant of its own), serve a bucket's live build.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { build } from "../../../scripts/build.ts";
import { type LocalWorker, startLocalWorker } from "../../../scripts/hosts/cloudflare/local/workerd.ts";
import { uploadToR2 } from "../../../scripts/hosts/cloudflare/r2/upload.ts";
import { type BuiltSite, buildSite } from "../build/built-site.ts";
import { repoRoot } from "../fs/dirs.ts";

/** The folder of a test file's builds and buckets, and the two builds: set once `buildsAB()`'s hook has run. */
export const ab = { dir: "", distA: "", distB: "" };

/** Builds A and B before a test file's tests, and removes them after. */
export function buildsAB(): void {
  let a: BuiltSite | undefined;
  beforeAll(async () => {
    a = await buildSite({ copyContent: true, prefix: "cloudflare-r2-builds-" });
    const { content } = a;
    ab.dir = a.dir;
    ab.distA = a.dist;
    // B: another site address (every url, so nearly every body, changes) and one tool more (every total changes).
    const site = JSON.parse(await readFile(join(content, "site.json"), "utf8"));
    await writeFile(join(content, "site.json"), JSON.stringify({ ...site, siteUrl: "https://other.example" }));
    const tool = JSON.parse(await readFile(join(content, "tools/beta-mail.json"), "utf8"));
    await writeFile(
      join(content, "tools/bravo.json"),
      JSON.stringify({ ...tool, name: "Bravo", slug: "bravo", categories: ["seo"] }),
    );
    ab.distB = join(a.dir, "b");
    await build({ contentDir: content, outDir: ab.distB });
  }, 120_000);
  afterAll(() => a?.remove());
}

/** Requests whose answers differ between A and B: totals, a tool only B has, urls, a search. */
export const TARGETS = [
  "/v1/software?limit=100",
  "/v1/software?category=seo&limit=3",
  "/v1/software/bravo",
  "/v1/software/beta-mail",
  "/v1/categories",
  "/v1/best/email",
  "/v1/search?q=b",
];

export interface Answer {
  status: number;
  body: string;
  build: string | null;
}

export async function ask(origin: string, target: string): Promise<Answer> {
  const res = await fetch(origin + target);
  return { status: res.status, body: await res.text(), build: res.headers.get("x-catalog-build") };
}

export const answersOf = async (origin: string) => Promise.all(TARGETS.map((t) => ask(origin, t)));

/** `npm run upload:r2 -- --dist DIR --persist P` as a child process in a process group of its own. */
export function uploadCommand(dist: string, persist: string): { done: Promise<number | null>; kill(): void } {
  const child = spawn(
    process.execPath,
    ["scripts/launcher/launch.cjs", "scripts/commands/upload-r2.ts", "--dist", dist, "--persist", persist],
    { cwd: repoRoot, stdio: "ignore", detached: true },
  );
  return {
    done: new Promise((resolve) => child.on("exit", (code) => resolve(code))),
    // The whole group, as a kill of the command kills its workerd too: none is left running after the test.
    kill: () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    },
  };
}

/**
 * test/helpers/r2/upload-killed.ts: the real upload, killed with its workerd at an instant of its own (`bodies=N` or
 * `record`).
 * Run from its bundle, as the upload command is: through tsx's loader, importing Miniflare cost ~3 s of CPU a run.
 */
export async function killedUpload(dist: string, persist: string, at: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ["scripts/launcher/launch.cjs", "test/helpers/r2/upload-killed.ts", dist, persist, at],
    { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c));
  child.stderr!.on("data", (c: Buffer) => (output += c));
  const [, signal] = (await once(child, "exit")) as [number | null, string | null];
  expect(signal, `the upload (${at}) was to be killed before it ended:\n${output}`).toBe("SIGKILL");
  return output;
}

/**
 * Serves the bucket's live build (after publishing `dist` there) on a port of its own, counting R2 reads; its uploader
 * Worker (`uploadTarget()`) acts on the same bucket. One workerd both publishes and serves (the API Worker, which no
 * request reaches before that): one started to upload and another to serve cost ~1.5 s of CPU each.
 */
export async function serving(dist: string, persist: string): Promise<LocalWorker> {
  const worker = await startLocalWorker({
    distDir: dist,
    mode: "r2",
    r2Persist: persist,
    port: 0,
    uploader: true,
    countReads: true,
  });
  try {
    await uploadToR2(dist, await worker.uploadTarget());
  } catch (e) {
    await worker.close();
    throw e;
  }
  return worker;
}
