// The real `serve` CLI on static copies (`npm run export`) of the tiny fixture, as a user previews one with
// `npx serve DIR`: the rewrites dist/serve.json has, no folder listing, JSON 404s labelled JSON, the docs page at /.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteTable } from "../../../../scripts/api/runtime/route-table.ts";
import type { ServeConfig } from "../../../../scripts/hosts/static/serve-json.ts";
import { makeStaticCopy } from "../../../../scripts/hosts/static/static-copy.ts";
import { builtSite } from "../../../helpers/build/built-site.ts";
import { type RunningServe, startServe } from "../../../helpers/hosts/serve-package.ts";

const site = builtSite({ prefix: "serve-static-copy-" });
let table: RouteTable;
const exports: Record<"full" | "aligned", { out: string; serve: RunningServe }> = {} as never;

beforeAll(async () => {
  table = JSON.parse(await readFile(join(site.dist, "routes.json"), "utf8")) as RouteTable;
  for (const [name, limits] of [
    ["full", undefined],
    ["aligned", [20, 100]],
  ] as const) {
    const out = join(site.dir, name);
    await makeStaticCopy(site.dist, out, "serve", limits);
    exports[name] = { out, serve: await startServe(out) };
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(exports).map((e) => e.serve.stop()));
});

async function get(origin: string, target: string) {
  const res = await fetch(origin + target, { redirect: "manual" });
  return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
}

const file = (name: string) => readFile(join(site.dist, name), "utf8");

describe.each(["full", "aligned"] as const)("npx serve on a %s export", (name) => {
  it("carries every rewrite of dist/serve.json, onto the same files", async () => {
    const own = JSON.parse(await readFile(join(site.dist, "serve.json"), "utf8")) as ServeConfig;
    const exported = JSON.parse(await readFile(join(exports[name].out, "serve.json"), "utf8")) as ServeConfig;
    // dist/serve.json serves the base-path folder: its destinations lie below it.
    const routes = own.rewrites.filter((r) => r.source.startsWith(`${table.basePath}/`));
    expect(routes.length).toBeGreaterThan(5);
    for (const r of routes)
      expect(exported.rewrites, r.source).toContainEqual({
        source: r.source,
        destination: table.basePath + r.destination,
      });
    expect(exported.directoryListing).toBe(false);
  });

  it("answers /v1/software (any query) with the first page, never a folder listing", async () => {
    const { origin } = exports[name].serve;
    for (const target of ["/software", "/software?limit=5", "/software/"]) {
      const got = await get(origin, table.basePath + target);
      expect(got.status, target).toBe(200);
      expect(got.type, target).toBe(table.headers.all["Content-Type"]);
      expect(got.body, target).toBe(await file(`${table.basePath.slice(1)}/software/pages/all/20/0.json`));
    }
  });

  it("answers a path with no file (search by query, a folder, nothing) 404 with the not_found body, as JSON", async () => {
    const { origin } = exports[name].serve;
    for (const target of ["/search?q=zest", "/search", "/software/pages", "/nothing", "/"].map(
      (t) => table.basePath + t,
    )) {
      const got = await get(origin, target);
      expect(got.status, target).toBe(404);
      expect(got.type, target).toBe(table.headers.all["Content-Type"]);
      expect(got.body, target).toBe(await file(table.errors.not_found.file));
    }
  });

  it("serves the docs page at / and its files with their own types", async () => {
    const { origin } = exports[name].serve;
    for (const asset of table.assets) {
      const got = await get(origin, asset.path);
      expect(got.status, asset.path).toBe(200);
      expect(got.type, asset.path).toBe(asset.contentType);
    }
  });
});
