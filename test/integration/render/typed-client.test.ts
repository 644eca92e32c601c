// A typed client from the description: openapi-typescript generates the types from the built openapi.json, tsc 5.9
// checks the example client against them, and the client fetches real data from the live Node server.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { startServer } from "../../../scripts/hosts/node/server/start-server.ts";
import { generateClientTypes } from "../../../scripts/write-client-types.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";
import type { components } from "../../helpers/openapi/client/api.ts";
import {
  allToolsOf,
  type CatalogClient,
  cheapestIn,
  createCatalogClient,
  toolDetail,
} from "../../helpers/openapi/client/catalog-client.ts";
import { buildOpenapiSite, type OpenapiSite } from "../../helpers/openapi/openapi-site.ts";

const clientDir = join(repoRoot, "test/helpers/openapi/client");

describe("typed client (openapi-typescript + openapi-fetch) against the live server", () => {
  let site: OpenapiSite;
  let api: Awaited<ReturnType<typeof startServer>>;
  let client: CatalogClient;
  let work: string;
  let generated: string;

  beforeAll(async () => {
    // The tiny fixture: the committed types in client/api.ts are generated from it.
    site = await buildOpenapiSite("tiny");
    api = await startServer({ distDir: site.dist, port: 0, host: "127.0.0.1" });
    client = createCatalogClient(`${api.url}${site.table.basePath}`);
    // Under the repository, so the temporary project resolves openapi-fetch and @types/node from node_modules/.
    await mkdir(join(repoRoot, "tmp"), { recursive: true });
    work = await mkdtemp(join(repoRoot, "tmp", "openapi-client-"));
    generated = await generateClientTypes(site.openapiPath);
  });
  afterAll(async () => {
    await api?.close();
    await site?.remove();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("types generated from the built description equal the committed client/api.ts", async () => {
    expect(generated).toBe(await readFile(join(clientDir, "api.ts"), "utf8"));
  });

  it("the example client type-checks (tsc 5.9, strict) against types freshly generated from the build", async () => {
    await writeFile(join(work, "api.ts"), generated);
    await copyFile(join(clientDir, "catalog-client.ts"), join(work, "catalog-client.ts"));
    const tsconfig = {
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2023"],
        types: ["node"],
        strict: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
        allowImportingTsExtensions: true,
        noEmit: true,
      },
      files: ["catalog-client.ts"],
    };
    await writeFile(join(work, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
    await writeFile(join(work, "package.json"), JSON.stringify({ type: "module" }));
    const tsc = join(repoRoot, "node_modules/.bin/tsc");
    const result = await promisify(execFile)(tsc, ["--noEmit", "-p", join(work, "tsconfig.json")], {
      timeout: 120_000,
    }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: e.code ?? 1,
        out: `${e.stdout ?? ""}${e.stderr ?? ""}`,
      }),
    );
    expect(result.out).toBe("");
    expect(result.code).toBe(0);
  });

  it("getSoftware returns the first tool's detail, typed as SoftwareDetail; an unknown slug gives null", async () => {
    const first = site.catalog.tools[0]!;
    const detail = await toolDetail(client, first.slug);
    expectTypeOf(detail).toEqualTypeOf<components["schemas"]["SoftwareDetail"] | null>();
    expect(detail?.name).toBe(first.name);
    expect(detail?.lowestPaidPrice).toBe(first.lowestPaidPrice);
    expect(detail?.pricingPlans.length).toBe(first.pricingPlans.length);
    expect(await toolDetail(client, "no-such-tool")).toBeNull();
  });

  it("listSoftware pages through every tool of each category, in O1 order", async () => {
    for (const category of site.catalog.categories) {
      const tools = await allToolsOf(client, category.slug);
      expectTypeOf(tools).toEqualTypeOf<components["schemas"]["SoftwareSummary"][]>();
      expect(
        tools.map((t) => t.slug),
        category.slug,
      ).toEqual(category.tools.map((t) => t.slug));
    }
  });

  it("getBestInCategory gives the cheapest tool first (O3)", async () => {
    const category = site.catalog.categories.find((c) => c.ranking.length > 0)!;
    const cheapest = await cheapestIn(client, category.slug);
    expectTypeOf(cheapest).toEqualTypeOf<components["schemas"]["RankedTool"] | undefined>();
    expect(cheapest?.slug).toBe(category.ranking[0]!.slug);
    expect(cheapest?.lowestPrice).toBe(category.ranking[0]!.lowestPaidPrice);
  });

  it("an unknown category surfaces the typed error code category_not_found", async () => {
    await expect(allToolsOf(client, "no-such-category")).rejects.toThrow(/^category_not_found: /);
  });
});
