// H7 on the Node server: a body the published build names that the disk cannot give whole (removed, cut, unreadable
// under a running server) answers 503 service_unavailable with Retry-After and no-store, one log line naming it,
// never a 404, a cut body or the search's "no match"; once the file is back, the next request answers it, with no
// restart. What the build does not name stays a 404. A runs build's list page is its run's slice: a run missing, cut or
// of another length than the build's index says answers 503 for every page of its list, and the pages once it is back.
import { chmod, mkdir, readFile, rename, rm, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningServer, startServer } from "../../../../scripts/hosts/node/server/start-server.ts";
import { builtSite } from "../../../helpers/build/built-site.ts";

const site = builtSite({ prefix: "storage-faults-" });
let server: RunningServer;
let api: string;
const logged: string[] = [];

beforeAll(async () => {
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
  server = await startServer({ distDir: site.dist, port: 0, host: "127.0.0.1" });
  api = server.url + server.basePath;
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server?.close();
});

/** A request's status, the headers H7 names and its body. */
async function getFrom(origin: string, path: string, method = "GET") {
  const res = await fetch(`${origin}${path}`, { method });
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    cacheControl: res.headers.get("cache-control"),
    type: res.headers.get("content-type"),
    text: await res.text(),
  };
}

/** The answer every storage fault gets: 503, the headers, the error body; on HEAD the same without a body. */
const get = (path: string, method?: string) => getFrom(api, path, method);

function expectUnavailable(answer: Awaited<ReturnType<typeof getFrom>>, method = "GET") {
  expect(answer.status).toBe(503);
  expect(answer.retryAfter).toBe("1");
  expect(answer.cacheControl).toBe("no-store");
  expect(answer.type).toBe("application/json; charset=utf-8");
  if (method === "GET") expect(JSON.parse(answer.text).error.code).toBe("service_unavailable");
  else expect(answer.text).toBe("");
}

/** Breaks one file of the served build with `fault`, checks every request in `paths` twice, then restores it and
 *  checks that the next request answers the original bytes. */
async function underFault(
  file: string,
  fault: (path: string) => Promise<void>,
  paths: string[],
  get: (path: string, method?: string) => ReturnType<typeof getFrom> = (p, m) => getFrom(api, p, m),
  build = site.root,
) {
  const path = join(build, file);
  const original = await readFile(path);
  // Read once, so not yet kept in memory (a file is kept from its second request): the fault is on the disk's side.
  const expected = await Promise.all(paths.map(async (p) => (await get(p)).text));
  logged.length = 0;
  await fault(path);
  try {
    for (const p of paths) {
      expectUnavailable(await get(p));
      expectUnavailable(await get(p)); // not remembered as a miss, not answered from anything else
      expectUnavailable(await get(p, "HEAD"), "HEAD");
    }
    expect(logged.length).toBe(paths.length * 3);
    for (const line of logged) expect(line).toContain(file);
  } finally {
    await rm(path, { recursive: true, force: true });
    await writeFile(path, original);
  }
  for (const [i, p] of paths.entries()) {
    const again = await get(p);
    expect(again.status).toBe(200);
    expect(again.text).toBe(expected[i]);
  }
}

describe("H7 the Node server answers 503 for a body its build names but the disk cannot give", () => {
  it("a removed tool answers 503, never 404 software_not_found; back again, 200", async () => {
    await underFault("v1/software/quill.json", (p) => rm(p), ["/software/quill"]);
  });

  it("a tool cut to half answers 503, never 200 with half the body", async () => {
    await underFault(
      "v1/software/beta-mail.json",
      async (p) => truncate(p, Math.floor((await readFile(p)).byteLength / 2)),
      ["/software/beta-mail"],
    );
  });

  it("a removed search answer answers 503, never the no-match body", async () => {
    await underFault("v1/search/mail.json", (p) => rm(p), ["/search?q=mail"]);
  });

  it("an unreadable ranking and a removed list page answer 503", async () => {
    // As root a mode of 000 still reads: a folder in the file's place is unreadable for every user.
    const unreadable = async (p: string) => {
      await rm(p);
      if (process.getuid?.() === 0) await mkdir(p);
      else await writeFile(p, "{}").then(() => chmod(p, 0));
    };
    await underFault("v1/best/crm.json", unreadable, ["/best/crm"]);
    await underFault("v1/software/pages/all/3/1.json", (p) => rename(p, `${p}.moved`), ["/software?limit=3&offset=1"]);
  });

  it("what the build does not name stays 404, read from no disk at all", async () => {
    logged.length = 0;
    expect((await get("/software/no-such-tool")).status).toBe(404);
    expect(JSON.parse((await get("/software/no-such-tool")).text).error.code).toBe("software_not_found");
    expect((await get("/best/no-such-category")).status).toBe(404);
    expect((await get("/software?offset=999")).status).toBe(400);
    expect(JSON.parse((await get("/search?q=qqqq")).text).meta.total).toBe(0);
    expect(logged).toEqual([]);
  });
});

describe("H7 from a runs build: a list's run missing, cut or not the index's answers 503 for its pages", () => {
  const runsSite = builtSite({ prefix: "storage-faults-runs-", layout: "runs" });
  let runsServer: RunningServer;
  let runsApi: string;
  beforeAll(async () => {
    runsServer = await startServer({ distDir: runsSite.dist, port: 0, host: "127.0.0.1" });
    runsApi = runsServer.url + runsServer.basePath;
  });
  afterAll(() => runsServer?.close());
  const fromRuns = (path: string, method?: string) => getFrom(runsApi, path, method);
  // Pages at both ends of the run and an empty last page; each test its own (a page asked for again is kept in
  // memory, as a file is, and answered from there).
  const pages = (limit: number) => [
    `/software?limit=${limit}`,
    `/software?limit=1&offset=${limit}`,
    `/software?limit=${10 + limit}&offset=4`,
  ];

  it("a removed run answers 503 for each of its pages, never 404 or an empty page; back again, 200", async () => {
    await underFault("runs/all.run", (p) => rm(p), pages(2), fromRuns, runsSite.root);
    expect((await fromRuns("/software?category=email&limit=50")).status).toBe(200);
  });

  it("a run cut short answers 503, even for a page whose bytes lie before the cut", async () => {
    await underFault("runs/all.run", (p) => truncate(p, 10), pages(1), fromRuns, runsSite.root);
  });

  it("a run of another length than the index says (another build's) answers 503", async () => {
    await underFault(
      "runs/all.run",
      async (p) => writeFile(p, `${await readFile(p, "utf8")} `),
      pages(3),
      fromRuns,
      runsSite.root,
    );
  });

  it("an unreadable run answers 503", async () => {
    await underFault(
      "runs/category/email.run",
      async (p) => {
        await rm(p);
        await mkdir(p);
      },
      ["/software?category=email", "/software?category=email&limit=1&offset=1"],
      fromRuns,
      runsSite.root,
    );
  });
});
