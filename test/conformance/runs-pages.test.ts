// L2 on the catalog the suite serves (the sample): every page file of its page tree is what the Node server answers
// from the same catalog built with --layout runs, byte for byte, with its ETag and length. The project's setup built
// both layouts (test/setup/build-catalog.ts); a project that built only one (conformance-r2) has nothing to compare.
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { etagOf } from "../../scripts/api/etag-node.ts";
import { type RunningServer, startServer } from "../../scripts/hosts/node/server/start-server.ts";
import { askPipelined } from "../helpers/hosts/pipelined.ts";

const runsDist = inject("runsDistDir");
const selected = process.env.CONFORMANCE_HOSTS?.split(",").map((h) => h.trim());

describe.skipIf(!runsDist || (selected && !selected.includes("node-runs")))(
  "the Node server from runs answers every page of the page tree (L2)",
  () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ distDir: runsDist!, port: 0, host: "127.0.0.1" });
    });
    afterAll(() => server?.close());

    it("L2 every page file of the catalog's page tree, byte for byte, with its ETag and length", async () => {
      const tree = await realpath(inject("distDir"));
      const files = (await fg("v1/software/pages/**/*.json", { cwd: tree })).sort();
      const pages = files.map((file) => {
        const [, filter, limit, offset] = /^v1\/software\/pages\/(.+)\/(\d+)\/(\d+)\.json$/.exec(file)!;
        const category = filter === "all" ? "" : `&category=${filter!.slice("category/".length)}`;
        return { file, target: `/v1/software?limit=${limit}&offset=${offset}${category}` };
      });
      expect(pages.length).toBeGreaterThan(1_000);
      const answers = await askPipelined(
        server.url,
        pages.map(({ target }) => ({ target })),
      );
      for (const [i, { file, target }] of pages.entries()) {
        const body = await readFile(join(tree, file));
        const answer = answers[i]!;
        expect(answer.status, target).toBe(200);
        expect(answer.body.equals(body), target).toBe(true);
        expect(answer.headers.etag, target).toBe(etagOf(body));
        expect(answer.headers["content-length"], target).toBe(String(body.byteLength));
      }
    }, 120_000);
  },
);
