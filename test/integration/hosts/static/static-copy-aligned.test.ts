// npm run export -- --pages aligned: a file host gets every body but the list pages no client walks. Each file is the
// build's own, byte for byte; served by `npx serve`, the typed client walks every list from its first page to its
// last at each exported page size and gets what the API answers.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alignedLimitsFile } from "../../../../scripts/api/runtime/route-table.ts";
import { startServer } from "../../../../scripts/hosts/node/server/start-server.ts";
import { makeStaticCopy } from "../../../../scripts/hosts/static/static-copy.ts";
import { builtSite } from "../../../helpers/build/built-site.ts";
import { repoRoot } from "../../../helpers/fs/dirs.ts";
import { hashTree } from "../../../helpers/fs/tree.ts";
import { type RunningServe, startServe } from "../../../helpers/hosts/serve-package.ts";
import { allToolsOf, createCatalogClient } from "../../../helpers/openapi/client/catalog-client.ts";
import { createFileHostClient } from "../../../helpers/openapi/client/file-host.ts";
import { launchArgs } from "../../../helpers/process/launch.ts";

const run = promisify(execFile);
const exportCommand = (args: string[]) =>
  run(process.execPath, launchArgs("scripts/commands/export.ts", ...args), { cwd: repoRoot });

const site = builtSite({ prefix: "msapi-aligned-", content: "sample" });
let categories: string[];

beforeAll(async () => {
  const body = JSON.parse(await readFile(join(site.dist, "v1/export/catalog.json"), "utf8"));
  categories = body.data.categories.map((c: { slug: string }) => c.slug);
});

/** The full static export's files, made once: both limit sets compare with the same one. */
let fullExport: Promise<string[]> | undefined;
const fullExportFiles = () =>
  (fullExport ??= makeStaticCopy(site.dist, join(site.dir, "full"), "static").then(async () =>
    (await fg("**", { cwd: join(site.dir, "full"), dot: true, onlyFiles: true })).sort(),
  ));
/** The build's files and their hashes, read once for both limit sets. */
let builtTree: Promise<Map<string, string>> | undefined;
const builtHashes = () => (builtTree ??= hashTree(site.dist));

/** A list page of the build: v1/software/pages/{all|category/slug}/{limit}/{offset}.json */
const PAGE = /^v1\/software\/pages\/(?:all|category\/[^/]+)\/(\d+)\/(\d+)\.json$/;

describe.each([
  { limits: undefined, kept: [20, 100] },
  { limits: [7, 30], kept: [7, 30] },
])("npm run export -- --pages aligned (limits $kept)", ({ limits, kept }) => {
  let out: string;
  let files: string[];

  beforeAll(async () => {
    out = join(site.dir, `aligned-${kept.join("-")}`);
    const args = ["--dist", site.dist, "--out", out, "--pages", "aligned", "--json"];
    if (limits) args.push("--limits", limits.join(","));
    const { stdout } = await exportCommand(args);
    const summary = JSON.parse(stdout);
    files = (await fg("**", { cwd: out, dot: true, onlyFiles: true })).sort();
    expect(summary).toMatchObject({ ok: true, files: files.length, alignedLimits: kept });
  });

  it("holds every file of the full export but the pages off the chosen limits' boundaries, and a limits file", async () => {
    const all = await fullExportFiles();
    const aligned = (f: string) => {
      const page = PAGE.exec(f);
      return !page || (kept.includes(Number(page[1])) && Number(page[2]) % Number(page[1]) === 0);
    };
    expect(files).toEqual([...all.filter(aligned), alignedLimitsFile("/v1")].sort());
    expect(files.length).toBeLessThan(all.length / 10);
    expect(JSON.parse(await readFile(join(out, alignedLimitsFile("/v1")), "utf8"))).toEqual({
      aligned: true,
      limits: kept,
    });
  });

  it("every file is the full build's file of the same path, byte for byte", async () => {
    const built = await builtHashes();
    const exported = await hashTree(out);
    // What the export makes rather than copies: the limits file, and serve.json for `npx serve` on the folder.
    exported.delete(alignedLimitsFile("/v1"));
    exported.delete("serve.json");
    for (const [file, hash] of exported) expect(built.get(file), file).toBe(hash);
  });

  describe("served by npx serve, walked by the typed client", () => {
    let serve: RunningServe;
    let api: Awaited<ReturnType<typeof startServer>>;
    beforeAll(async () => {
      serve = await startServe(out);
      api = await startServer({ distDir: site.dist, port: 0 });
    });
    afterAll(async () => {
      await serve?.stop();
      await api?.close();
    });

    it("every list from its first page to its last, at every exported limit, as the API lists it", async () => {
      const { client, pageLimits } = await createFileHostClient(serve.origin);
      expect(pageLimits).toEqual(kept);
      const requested: string[] = [];
      client.use({
        onRequest: ({ request }) => {
          requested.push(request.url);
          return undefined;
        },
      });
      const apiClient = createCatalogClient(`${api.url}/v1`);
      for (const category of [undefined, ...categories]) {
        const expected = await allToolsOf(apiClient, category, 100);
        for (const limit of pageLimits) {
          requested.length = 0;
          expect(await allToolsOf(client, category, limit), `${category ?? "all"} at ${limit}`).toEqual(expected);
          // Page by page: n tools take ceil(n / limit) requests, and an empty list one.
          expect(requested.length).toBe(Math.max(1, Math.ceil(expected.length / limit)));
        }
      }
    });
  });
});

describe("npm run export flags of aligned pages", () => {
  const refused = async (args: string[]) => {
    try {
      await exportCommand(["--dist", site.dist, "--out", join(site.dir, "never"), ...args]);
    } catch (e) {
      const err = e as { code: number; stderr: string };
      return { code: err.code, stderr: err.stderr };
    }
    throw new Error("the export succeeded");
  };

  it.each([
    [["--pages", "aligned", "--limits", "0,20"], '--limits "0,20": page sizes from 1 to 100'],
    [["--pages", "aligned", "--limits", "20,101"], '--limits "20,101": page sizes from 1 to 100'],
    [["--pages", "aligned", "--limits", "20;100"], "page sizes from 1 to 100, separated by commas"],
    [["--pages", "some"], "unknown --pages some: all or aligned"],
    [["--limits", "20"], "--limits goes with --pages aligned"],
  ])("%j: one line, exit 2", async (args, message) => {
    const { code, stderr } = await refused(args);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain(message);
  });
});
