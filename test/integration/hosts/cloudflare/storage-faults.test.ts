// H7 on the Worker, in workerd (Miniflare, offline): a body the live build names that the storage cannot give whole
// answers 503 service_unavailable with Retry-After and no-store, again on the next request, and 200 with the right
// bytes once the storage is back, with no restart. The build is a runs build (no page files: pages come from pieces).
// R2: the build's one pack moved out of the bucket, or cut short in the middle of a body or a piece. Static Assets: a
// file, and a piece a page is made of, removed or cut under the running Worker. (A fault after the export's first
// piece, once its status line is sent: export-parts.test.ts.)
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalWorker, startLocalWorker } from "../../../../scripts/hosts/cloudflare/local/workerd.ts";
import { uploadToR2 } from "../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { packKey } from "../../../../scripts/hosts/cloudflare/worker/r2-layout.ts";
import { builtSite } from "../../../helpers/build/built-site.ts";
import { expectedPage } from "../../../helpers/r2/expect-bucket.ts";

/** A tool, two list pages, a ranking, a search answer and the export: each a body of its own kind. */
const TARGETS = [
  "/v1/software/quill",
  "/v1/software?limit=2",
  "/v1/software?category=email&limit=1&offset=1",
  "/v1/best/email",
  "/v1/search?q=mail",
  "/v1/export/catalog.json",
];

/** What the tests do with the local bucket, through Miniflare. */
interface LocalBucket {
  list(options: { prefix: string }): Promise<{ objects: { key: string }[] }>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  put(key: string, value: ArrayBuffer): Promise<unknown>;
  delete(key: string): Promise<void>;
}

const site = builtSite({ prefix: "worker-storage-faults-", layout: "runs" });

async function get(origin: string, target: string) {
  const res = await fetch(origin + target);
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    cacheControl: res.headers.get("cache-control"),
    text: await res.text(),
  };
}

/** Every target answers 503 with the H7 headers, twice. */
async function expectUnavailable(origin: string, targets: string[]) {
  for (const target of targets)
    for (let i = 0; i < 2; i++) {
      const answer = await get(origin, target);
      expect(answer.status, `${target} (request ${i + 1})`).toBe(503);
      expect(answer.retryAfter).toBe("1");
      expect(answer.cacheControl).toBe("no-store");
      expect(JSON.parse(answer.text).error.code).toBe("service_unavailable");
    }
}

/** Every target answers 200 with the bytes it answered before the fault. */
async function expectBack(origin: string, targets: string[], before: string[]) {
  for (const [i, target] of targets.entries()) {
    const answer = await get(origin, target);
    expect(answer.status, target).toBe(200);
    expect(answer.text, target).toBe(before[i]);
  }
}

describe("H7 the Worker over R2 answers 503 when the live build's pack is gone or cut", () => {
  let worker: LocalWorker;
  let pack: string;
  let original: ArrayBuffer;
  const bucket = async () => (await worker.miniflare.getR2Bucket("BUCKET")) as unknown as LocalBucket;

  beforeAll(async () => {
    worker = await startLocalWorker({
      distDir: site.dist,
      mode: "r2",
      r2Persist: join(site.dir, "r2"),
      port: 0,
      uploader: true,
    });
    await uploadToR2(site.dist, await worker.uploadTarget());
    const packs = await (await bucket()).list({ prefix: packKey("") });
    expect(packs.objects.length, "the tiny build is one pack").toBe(1);
    pack = packs.objects[0]!.key;
    original = await (await (await bucket()).get(pack))!.arrayBuffer();
  }, 60_000);
  afterAll(() => worker?.close());

  // Each case reads targets no earlier request has put in the edge cache: a cold Worker each time would cost a
  // workerd start, so the pack is broken before any target is asked and the answers compared with the Node build's.
  it("the pack moved out: 503 on every body, never 404; moved back: 200 with the right bytes", async () => {
    const expected = await Promise.all(TARGETS.map(async (t) => (await readBody(t)) ?? ""));
    await (await bucket()).delete(pack);
    try {
      await expectUnavailable(worker.url, TARGETS);
    } finally {
      await (await bucket()).put(pack, original);
    }
    await expectBack(worker.url, TARGETS, expected);
  });

  it("the pack cut short in the middle of a body: 503 for the bodies past the cut", async () => {
    // Bodies already answered are in the edge cache; the cut is checked on a tool and a page read for the first time.
    const fresh = ["/v1/software/zeta-crm", "/v1/software?limit=3&offset=1"];
    const expected = await Promise.all(fresh.map(async (t) => (await readBody(t)) ?? ""));
    await (await bucket()).put(pack, original.slice(0, 40));
    try {
      await expectUnavailable(worker.url, fresh);
    } finally {
      await (await bucket()).put(pack, original);
    }
    await expectBack(worker.url, fresh, expected);
  });
});

describe("H7 the Worker over Static Assets answers 503 when a file of the build is gone or cut", () => {
  let worker: LocalWorker;
  beforeAll(async () => {
    worker = await startLocalWorker({ distDir: site.dist, mode: "assets", port: 0 });
  }, 60_000);
  afterAll(() => worker?.close());

  it("a removed tool, a cut piece of a page: 503 twice each; restored: 200 with the right bytes", async () => {
    const index = JSON.parse(await readFile(join(site.dist, "build-index.json"), "utf8")) as {
      lists: Record<string, { pieces: [string, number][] }>;
    };
    const piece = `v1/sync/pieces/${index.lists.all!.pieces[0]![0]}.json`;
    const files = ["v1/software/beta-mail.json", piece];
    const targets = ["/v1/software/beta-mail", "/v1/software?limit=2"];
    const expected = await Promise.all(targets.map(async (t) => (await readBody(t))!));
    const originals = await Promise.all(files.map((f) => readFile(join(site.dist, f))));
    await rm(join(site.dist, files[0]!));
    await writeFile(join(site.dist, files[1]!), originals[1]!.subarray(0, 30));
    try {
      await expectUnavailable(worker.url, targets);
    } finally {
      await Promise.all(files.map((f, i) => writeFile(join(site.dist, f), originals[i]!)));
    }
    await expectBack(worker.url, targets, expected);
    expect((await get(worker.url, "/v1/software/no-such-tool")).status, "what the build does not name").toBe(404);
  });
});

/** What the build holds for a target, as the Node server's resolver would find it: read from the built files (a
 *  page from its list's run, as the page tree would hold it). */
async function readBody(target: string): Promise<string | undefined> {
  const file: Record<string, string> = {
    "/v1/software/quill": "v1/software/quill.json",
    "/v1/software/beta-mail": "v1/software/beta-mail.json",
    "/v1/software/zeta-crm": "v1/software/zeta-crm.json",
    "/v1/best/email": "v1/best/email.json",
    "/v1/search?q=mail": "v1/search/mail.json",
    "/v1/export/catalog.json": "v1/export/catalog.json",
  };
  const page: Record<string, [string, string | null, number, number]> = {
    "/v1/software?limit=2": ["all", null, 2, 0],
    "/v1/software?limit=3&offset=1": ["all", null, 3, 1],
    "/v1/software?category=email&limit=1&offset=1": ["category/email", "email", 1, 1],
  };
  if (page[target]) return (await expectedPage(site.dist, ...page[target]!)).toString();
  return file[target] && (await readFile(join(site.dist, file[target]!), "utf8"));
}
