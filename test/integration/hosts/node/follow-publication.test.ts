// B5 with a symlinked dist/ switched between two built trees: the server answers from the new build within 1 s of the
// switch, never from a mix, and never 404s because the old build's folder vanished.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../../scripts/hosts/node/server/start-server.ts";
import { repoRoot, tempDir } from "../../../helpers/fs/dirs.ts";
import { copyTiny, editTiny, INSERTED_SLUG, publish, twoBuilds } from "../../../helpers/hosts/node/edit-fixture.ts";

interface Page {
  meta: { total: number };
}

describe("the Node server follows a symlinked dist/ (B5)", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let server: RunningServer;
  let api: string;
  let dist: string;
  let genA: string;
  let genB: string;
  const limits = [1, 2, 3, 5, 7, 20];

  beforeAll(async () => {
    dir = await tempDir();
    ({ genA, genB, dist } = await twoBuilds(dir.path));
    server = await startServer({ distDir: dist, port: 0 });
    api = server.url + server.basePath;
  });
  afterAll(async () => {
    await server?.close();
    await dir.remove();
  });

  const totals = async () =>
    Promise.all(
      limits.map(async (l) => ((await (await fetch(`${api}/software?limit=${l}`)).json()) as Page).meta.total),
    );

  it("serves the new build within 1 s of the switch: bodies, misses and totals all new, none mixed", async () => {
    // Warm every cache of the old build, misses included.
    const before = await totals();
    expect(new Set(before).size).toBe(1);
    expect((await fetch(`${api}/software/${INSERTED_SLUG}`)).status).toBe(404);
    expect((await fetch(`${api}/software?offset=${before[0]! + 1}`)).status).toBe(400);
    const oldTool = (await (await fetch(`${api}/software/alpha-mail`)).json()) as { data: { name: string } };
    expect(oldTool.data.name).toBe("alpha Mail");

    await publish(dist, genB);
    const published = Date.now();
    let seen: number[] = [];
    for (;;) {
      seen = await totals();
      if (seen.every((t) => t === before[0]! + 1)) break;
      // every round is one build or the other, never both
      expect(Date.now() - published, `totals ${seen} still old`).toBeLessThan(1_000);
    }
    expect(new Set(seen).size).toBe(1);
    expect((await fetch(`${api}/software/${INSERTED_SLUG}`)).status).toBe(200);
    expect((await fetch(`${api}/software?offset=${before[0]! + 1}`)).status).toBe(200);
    const newTool = (await (await fetch(`${api}/software/alpha-mail`)).json()) as { data: { name: string } };
    expect(newTool.data.name).toBe("alpha Mail v2");
    expect(server.root()).toBe(genB);
  });

  it("a body of a build whose folder vanished is answered by the published one, never a 404 or a 503", async () => {
    await publish(dist, genA);
    await server.reload();
    expect(server.root()).toBe(genA);
    // Switch and recycle the old folder at once: lookups not cached yet in genA now fail on disk.
    await publish(dist, genB);
    await rename(genA, `${genA}.recycled`);
    const statuses = await Promise.all(
      ["alpha-mail", "beta-mail", "quill", "zeta-crm"].map(
        async (slug) => (await fetch(`${api}/software/${slug}`)).status,
      ),
    );
    expect(statuses).toEqual([200, 200, 200, 200]);
    await rename(`${genA}.recycled`, genA);
  });

  it("a plain folder given as --dist is served as it is", async () => {
    const plain = await startServer({ distDir: genA, port: 0 });
    try {
      const res = await fetch(`${plain.url}${plain.basePath}/software/${INSERTED_SLUG}`);
      expect(res.status).toBe(404);
      expect(plain.root()).toBe(genA);
    } finally {
      await plain.close();
    }
  });
});

describe("the Node server follows real `npm run build` rebuilds while serving (B5)", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let server: RunningServer;
  let content: string;
  let dist: string;

  beforeAll(async () => {
    dir = await tempDir();
    content = await copyTiny(join(dir.path, "content"));
    dist = join(dir.path, "dist");
    await runBuild(content, dist);
    server = await startServer({ distDir: dist, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await dir.remove();
  });

  /** One URL's answer, as "old" or "new" build. */
  const probes: { path: string; isNew: (status: number, body: string) => boolean }[] = [
    ...[1, 2, 3, 7, 20].map((limit) => ({
      path: `/software?limit=${limit}`,
      isNew: (_: number, body: string) => (JSON.parse(body) as Page).meta.total === 5,
    })),
    { path: "/software/alpha-mail", isNew: (_: number, body: string) => body.includes('"alpha Mail v2"') },
    { path: `/software/${INSERTED_SLUG}`, isNew: (status: number) => status === 200 },
    { path: "/software?offset=5", isNew: (status: number) => status === 200 },
  ];

  it("after a price and name edit and an insert: every URL new within 1 s of publication, never old after new", async () => {
    const api = server.url + server.basePath;
    const observed: { at: number; path: string; isNew: boolean }[] = [];
    const observe = async () => {
      for (const p of probes) {
        const res = await fetch(api + p.path);
        observed.push({ at: Date.now(), path: p.path, isNew: p.isNew(res.status, await res.text()) });
      }
    };
    await observe(); // warms every cache, misses included
    expect(observed.every((o) => !o.isNew)).toBe(true);
    await editTiny(content, "v2");
    let building = true;
    const build = runBuild(content, dist).finally(() => (building = false));
    while (building) await observe();
    await build;
    const published = Date.now();
    while (Date.now() - published < 1_200) await observe();
    const firstNew = observed.findIndex((o) => o.isNew);
    expect(firstNew, "the new build was served").toBeGreaterThan(0);
    const oldAfterNew = observed.slice(firstNew).filter((o) => !o.isNew);
    expect(oldAfterNew, "an old answer after the first new one: a mix of two builds").toEqual([]);
    const lastOld = observed.filter((o) => !o.isNew).at(-1)!;
    expect(lastOld.at - published, "old answers more than 1 s after the build ended").toBeLessThan(1_000);
  });
});

describe("the Node server switches between a pages build and a runs build, both ways, while a reader runs (L2, B5)", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let server: RunningServer;
  let content: string;
  let dist: string;

  beforeAll(async () => {
    dir = await tempDir();
    content = await copyTiny(join(dir.path, "content"));
    dist = join(dir.path, "dist");
    await runBuild(content, dist, "--layout", "pages");
    server = await startServer({ distDir: dist, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await dir.remove();
  });

  /** Answers that show alpha-mail's name (it sorts first): list pages of every kind, and its detail. */
  const paths = [1, 2, 5, 20, 100].flatMap((limit) => [
    `/software?limit=${limit}`,
    `/software?limit=${limit}&category=email`,
  ]);
  paths.push("/software/alpha-mail", "/software?limit=3&offset=0");
  /** Which edit of alpha-mail's name an answer shows: 1 before any, else its tag's number. */
  const versionOf = (body: string) => Number(/"alpha Mail v(\d+)"/.exec(body)?.[1] ?? 1);

  it("pages → runs → pages: each build's answers whole within 1 s of its publication, never an older one after", async () => {
    const api = server.url + server.basePath;
    const observed: { at: number; version: number; status: number }[] = [];
    const observe = async () => {
      for (const path of paths) {
        const res = await fetch(api + path);
        observed.push({ at: Date.now(), version: versionOf(await res.text()), status: res.status });
      }
    };
    for (const [version, layout] of [
      [2, "runs"],
      [3, "pages"],
    ] as const) {
      await observe();
      const from = observed.length;
      await editTiny(content, `v${version}`);
      let building = true;
      const build = runBuild(content, dist, "--layout", layout).finally(() => (building = false));
      while (building) await observe();
      await build;
      const published = Date.now();
      while (Date.now() - published < 1_200) await observe();
      const seen = observed.slice(from);
      expect(seen.every((o) => o.status === 200)).toBe(true);
      const firstNew = seen.findIndex((o) => o.version === version);
      expect(firstNew, `the ${layout} build was served`).toBeGreaterThanOrEqual(0);
      const oldAfterNew = seen.slice(firstNew).filter((o) => o.version !== version);
      expect(oldAfterNew, "an older answer after a newer one: a mix of two builds").toEqual([]);
      const lastOld = seen.filter((o) => o.version !== version).at(-1);
      if (lastOld) expect(lastOld.at - published, "old answers more than 1 s after publication").toBeLessThan(1_000);
    }
  });
});

/** `npm run build` as a user runs it, in its own process. */
async function runBuild(content: string, out: string, ...args: string[]): Promise<void> {
  const child = spawn("npm", ["run", "--silent", "build", "--", "--content", content, "--out", out, ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c));
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`npm run build exited ${code}: ${stderr}`);
}
