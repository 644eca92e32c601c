// L2 on the Node server: every list page of a runs build is answered exactly as the page tree of the same catalog
// holds it. The tiny fixture, built with --compress in both layouts: every page and a page past each list's end, as
// GET in each coding (the coded bytes decoded to the page file), and as HEAD, status and headers as the pages build's
// server answers them; with If-None-Match, a seeded eighth of them. The sample catalog's every page file is compared
// in the conformance project, which builds it in both layouts (test/conformance/runs-pages.test.ts).
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../../scripts/build.ts";
import { type RunningServer, startServer } from "../../../../scripts/hosts/node/server/start-server.ts";
import { fixture, tempDir } from "../../../helpers/fs/dirs.ts";
import { askPipelined, type PipelinedRequest } from "../../../helpers/hosts/pipelined.ts";
import { seeded } from "../../../helpers/random/seeded.ts";

/** Every page file of a page tree, as its path and the target a client asks it with. */
async function pagesOf(root: string): Promise<{ file: string; target: string }[]> {
  const files = await fg("v1/software/pages/**/*.json", { cwd: root });
  return files.sort().map((file) => {
    const [, filter, limit, offset] = /^v1\/software\/pages\/(.+)\/(\d+)\/(\d+)\.json$/.exec(file)!;
    const category = filter === "all" ? "" : `&category=${filter!.slice("category/".length)}`;
    return { file, target: `/v1/software?limit=${limit}&offset=${offset}${category}` };
  });
}

let dir: Awaited<ReturnType<typeof tempDir>>;
const servers: RunningServer[] = [];
const serve = async (distDir: string) => {
  const server = await startServer({ distDir, port: 0, host: "127.0.0.1" });
  servers.push(server);
  return server.url.replace(/\/$/, "");
};

beforeAll(async () => {
  dir = await tempDir("runs-pages-");
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await dir?.remove();
});

describe("the Node server answers a runs build's list pages as the page tree holds them (L2)", () => {
  it("the tiny fixture with --compress: every page in every coding, HEAD and 304, status and headers alike", async () => {
    const pagesDist = join(dir.path, "tiny-pages");
    const runsDist = join(dir.path, "tiny-runs");
    await build({ contentDir: fixture("tiny"), outDir: pagesDist, compress: true });
    await build({ contentDir: fixture("tiny"), outDir: runsDist, compress: true, layout: "runs" });
    const tree = await realpath(pagesDist);
    const [fromPages, fromRuns] = [await serve(pagesDist), await serve(runsDist)];
    const pages = await pagesOf(tree);
    // past each list's end: offset_out_of_range, from the same error body
    const past = [...new Set(pages.map((p) => p.target.replace(/offset=\d+/, "offset=999")))];
    const variants: Omit<PipelinedRequest, "target">[] = [
      {},
      { headers: { "accept-encoding": "br" } },
      { headers: { "accept-encoding": "gzip" } },
      { method: "HEAD", headers: { "accept-encoding": "br, gzip" } },
    ];
    const requests = [...pages.map((p) => p.target), ...past].flatMap((target) =>
      variants.map((v) => ({ target, ...v })),
    );
    const [a, b] = await Promise.all([askPipelined(fromPages, requests), askPipelined(fromRuns, requests)]);
    let coded = 0;
    for (const [i, r] of requests.entries()) {
      const what = `${r.method ?? "GET"} ${r.target} ${JSON.stringify(r.headers ?? {})}`;
      expect(b[i]!.status, what).toBe(a[i]!.status);
      expect(b[i]!.headers, what).toEqual(a[i]!.headers);
      expect(b[i]!.body.equals(a[i]!.body), what).toBe(true);
      const page = pages[Math.floor(i / variants.length)];
      if (!page || r.method === "HEAD") continue;
      const file = await readFile(join(tree, page.file));
      const encoding = b[i]!.headers["content-encoding"];
      const body = b[i]!.body;
      const decoded = encoding === "br" ? brotliDecompressSync(body) : encoding === "gzip" ? gunzipSync(body) : body;
      expect(decoded.equals(file), what).toBe(true);
      if (encoding) coded++;
    }
    expect(coded, "pages of 1 KB and more are offered in br and gzip").toBeGreaterThan(150);
    // If-None-Match with an answer's ETag, in its coding: 304 from runs with the page tree's headers (a seeded eighth)
    const random = seeded(48);
    const conditional = requests
      .map((r, i) => ({ ...r, headers: { ...r.headers, "if-none-match": a[i]!.headers.etag ?? "" } }))
      .filter((_, i) => i < pages.length * variants.length && random() < 0.125);
    const [a304, b304] = await Promise.all([askPipelined(fromPages, conditional), askPipelined(fromRuns, conditional)]);
    for (const [i, r] of conditional.entries()) {
      expect(b304[i]!.status, r.target).toBe(a304[i]!.status);
      expect(b304[i]!.headers, r.target).toEqual(a304[i]!.headers);
    }
    expect(b304.every((r) => r.status === 304)).toBe(true);
    expect(b304.length).toBeGreaterThan(600);
    expect(pages.length).toBe(1_500);
  }, 120_000);
});
