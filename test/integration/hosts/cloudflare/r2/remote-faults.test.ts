// upload:r2 --remote over a network that fails, against the S3 test server's seeded faults (test/helpers/r2/
// s3-server.ts), with short deadlines set here so each case takes seconds: 5xx and 429 answers, connections reset
// mid-body, answers cut halfway, a request that stalls, an endpoint that stops answering, and lost answers to the
// upload's marker, to a pack's completion and to the switch. Each upload either completes with the bucket byte for
// byte the build, or fails in one line within the bound the deadlines give; in both cases the live build is whole,
// and a clean rerun completes sending no complete pack again.
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../../../scripts/build.ts";
import { rollback } from "../../../../../scripts/hosts/cloudflare/r2/bucket.ts";
import { prune } from "../../../../../scripts/hosts/cloudflare/r2/prune.ts";
import { remoteR2Target } from "../../../../../scripts/hosts/cloudflare/r2/remote.ts";
import { type UploadSummary, uploadToR2 } from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { upperBounds } from "../../../../../scripts/net/retry.ts";
import { builtSite } from "../../../../helpers/build/built-site.ts";
import { launchArgs } from "../../../../helpers/process/launch.ts";
import { expectLiveBuildIs, liveBuild, packKeys } from "../../../../helpers/r2/expect-bucket.ts";
import { BUCKET, KEY_ID, type S3Server, SECRET, s3Server } from "../../../../helpers/r2/s3-server.ts";

/** Short deadlines, so a stall costs half a second; the same arithmetic as the defaults (upperBounds). */
const deadlines = { connectMs: 1_000, answerMs: 500, stallMs: 500 };
const retry = { tries: 6, budgetMs: 3_000, baseDelayMs: 20, maxDelayMs: 200 };
const bounds = upperBounds(deadlines, retry);

const site = builtSite({ copyContent: true, prefix: "cloudflare-r2-faults-" });
let distA: string;
let distB: string;
let r2: S3Server;

beforeAll(async () => {
  const { content } = site;
  distA = site.dist;
  // B: a new tool, so every list and total changes and B's new bodies fill several packs.
  const tool = JSON.parse(await readFile(join(content, "tools/beta-mail.json"), "utf8"));
  await writeFile(
    join(content, "tools/gamma-mail.json"),
    JSON.stringify({ ...tool, name: "Gamma Mail", slug: "gamma-mail" }),
  );
  distB = join(site.dir, "b");
  await build({ contentDir: content, outDir: distB });
}, 120_000);

afterEach(async () => r2?.close());

// Small packs in small parts: many requests, most packs multipart.
const target = (server: S3Server, overrides: { tries?: number } = {}) =>
  remoteR2Target({
    endpoint: server.endpoint,
    bucket: BUCKET,
    accessKeyId: KEY_ID,
    secretAccessKey: SECRET,
    deadlines,
    retry: { ...retry, ...overrides },
    packBytes: 16 * 1024,
    partBytes: 8 * 1024,
  });

/** A fresh bucket with A live, uploaded without faults. */
async function bucketWithA(): Promise<{ server: S3Server; a: UploadSummary }> {
  r2 = await s3Server();
  const a = await uploadToR2(distA, target(r2));
  r2.requests.length = 0;
  return { server: r2, a };
}

/** Runs `upload` and says how it ended and how long it took. */
async function timed<T>(upload: Promise<T>): Promise<{ value?: T; error?: Error; ms: number }> {
  const started = performance.now();
  return upload.then(
    (value) => ({ value, ms: performance.now() - started }),
    (error: Error) => ({ error, ms: performance.now() - started }),
  );
}

/** The clean rerun after a failure: completes B, sending none of the packs that were complete before it. */
async function rerunSendsNoCompletePack(server: S3Server): Promise<UploadSummary> {
  server.heal();
  const complete = packKeys(server.objects);
  server.requests.length = 0;
  const done = await uploadToR2(distB, target(server));
  const sentAgain = server.requests
    .filter((r) => ["PutObject", "CreateMultipartUpload", "UploadPart"].includes(r.op) && complete.has(r.key))
    .map((r) => `${r.op} ${r.key}`);
  expect(sentAgain, "complete packs sent again").toEqual([]);
  expect(liveBuild(server.objects)).toBe(done.build);
  await expectLiveBuildIs(server.objects, distB);
  return done;
}

const noBadSignature = (server: S3Server) =>
  expect(server.requests.filter((r) => r.badSignature !== null).map((r) => `${r.method} ${r.url}`)).toEqual([]);

describe("answers that say 'not now', and connections that break, are tried again", () => {
  it("5xx and 429 answers to 15 % of requests: both uploads complete, the bucket byte for byte each build", async () => {
    r2 = await s3Server({ random: { rate: 0.15, kinds: ["status"], seed: 4201 } });
    // and one of each for certain, whatever order the requests come in
    r2.inject({ match: (r) => r.op === "UploadPart", fault: "status", status: 429 });
    r2.inject({ match: (r) => r.op === "PutObject" && r.key.startsWith("shards/"), fault: "status", status: 500 });
    await uploadToR2(distA, target(r2));
    await expectLiveBuildIs(r2.objects, distA);
    await uploadToR2(distB, target(r2));
    await expectLiveBuildIs(r2.objects, distB);
    expect(r2.requests.filter((r) => r.fault === "status").length).toBeGreaterThan(5);
    noBadSignature(r2);
  });

  it("connections reset mid-body, answers cut halfway and answers lost, 10 % of requests: both uploads complete", async () => {
    r2 = await s3Server({ random: { rate: 0.1, kinds: ["reset", "cut", "lose"], seed: 4202 } });
    // and one of each for certain, whatever order the requests come in
    r2.inject({ match: (r) => r.op === "UploadPart", fault: "reset" });
    r2.inject({ match: (r) => r.op === "ListObjectsV2", fault: "cut" });
    r2.inject({ match: (r) => r.op === "PutObject" && r.key.startsWith("shards/"), fault: "lose" });
    await uploadToR2(distA, target(r2));
    await expectLiveBuildIs(r2.objects, distA);
    await uploadToR2(distB, target(r2));
    await expectLiveBuildIs(r2.objects, distB);
    const faults = new Set(r2.requests.map((r) => r.fault));
    expect(faults).toEqual(new Set([null, "reset", "cut", "lose"]));
    // a part reset mid-body: its half arrived, and the part was sent again whole
    expect(r2.requests.some((r) => r.op === "UploadPart" && r.fault === "reset")).toBe(true);
    noBadSignature(r2);
  });

  it("a connection reset halfway through a 256 KiB part: the part is sent again whole", async () => {
    r2 = await s3Server();
    r2.inject({ match: (r) => r.op === "UploadPart", fault: "reset" });
    const big = remoteR2Target({
      endpoint: r2.endpoint,
      bucket: BUCKET,
      accessKeyId: KEY_ID,
      secretAccessKey: SECRET,
      deadlines,
      retry,
      packBytes: 1024 * 1024,
      partBytes: 256 * 1024,
    });
    await uploadToR2(distA, big);
    const [reset, again] = r2.requests.filter((r) => r.op === "UploadPart").slice(0, 2);
    expect(reset!.fault).toBe("reset");
    expect(Number(reset!.headers["content-length"])).toBe(256 * 1024);
    expect(reset!.body.byteLength, "half of it had arrived").toBeLessThan(256 * 1024);
    expect(again!.url).toBe(reset!.url);
    expect(again!.body.byteLength).toBe(256 * 1024);
    await expectLiveBuildIs(r2.objects, distA);
  });

  it("a request that stalls before its answer, and an answer that stalls halfway, are given up at their deadline and tried again", async () => {
    const { server } = await bucketWithA();
    server.inject({ match: (r) => r.op === "UploadPart", fault: "stall" });
    server.inject({ match: (r) => r.op === "GetObject" && r.key === "live.json", fault: "stall-answer" });
    const run = await timed(uploadToR2(distB, target(server)));
    expect(run.error).toBeUndefined();
    await expectLiveBuildIs(server.objects, distB);
    expect(server.requests.filter((r) => r.fault !== null).map((r) => r.fault)).toEqual(["stall-answer", "stall"]);
    // each stall cost about its deadline, not Node's five minutes
    expect(run.ms).toBeGreaterThanOrEqual(deadlines.answerMs + deadlines.stallMs);
    expect(run.ms).toBeLessThan(2 * bounds.stalledAttemptMs + 5_000);
  });
});

describe("an upload that fails", () => {
  it("an endpoint that stops answering: one line naming the request, the object, the attempts and the last cause, within the bound; A stays live; the rerun sends no complete pack again", async () => {
    const { server } = await bucketWithA();
    // Everything after B's first complete pack is read and never answered.
    let gone = false;
    server.inject({
      times: Number.POSITIVE_INFINITY,
      fault: "stall",
      match: (r) => {
        const stop = gone;
        if ((r.op === "CompleteMultipartUpload" || r.op === "PutObject") && r.key.startsWith("packs/")) gone = true;
        return stop;
      },
    });
    const run = await timed(uploadToR2(distB, target(server)));
    expect(run.error).toBeDefined();
    const line = run.error!.message;
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toMatch(
      /^R2 (PUT|UploadPart \d+ of|CreateMultipartUpload|CompleteMultipartUpload) packs\/[0-9a-f]{32}: gave up after \d+ attempts in \d+\.\d s; last: no answer within 0\.50 s of the request$/,
    );
    expect(line).not.toContain(SECRET);
    // the bound the arithmetic promises: the failing request, then the abort of its multipart upload
    expect(run.ms).toBeLessThan(bounds.requestMs + Math.min(5_000, retry.budgetMs) + bounds.attemptWithoutProgressMs);
    expect(packKeys(server.objects).size).toBeGreaterThan(0);
    await expectLiveBuildIs(server.objects, distA);
    const done = await rerunSendsNoCompletePack(server);
    expect(done.present).toBeGreaterThan(0);
  });

  it("a 403 after B's first pack: one line at once; the marker stays, so the rerun reuses the pack; prune waits only while the marker is fresh", async () => {
    const { server, a } = await bucketWithA();
    // once a pack of B is complete, the server refuses every PUT (its own 403, not an injected fault)
    server.inject({
      times: Number.POSITIVE_INFINITY,
      fault: "stall",
      match: (r) => {
        if (r.op === "CompleteMultipartUpload") server.state.refuse = true;
        return false;
      },
    });
    const packsOfA = packKeys(server.objects).size;
    const run = await timed(uploadToR2(distB, target(server)));
    server.state.refuse = false;
    expect(packKeys(server.objects).size, "a pack of B was complete").toBeGreaterThan(packsOfA);
    expect(run.error?.message).toMatch(/^R2 (PUT|UploadPart \d+ of) \S+: 403 AccessDenied \(Access Denied\)$/);
    expect(run.ms, "not tried again").toBeLessThan(bounds.stalledAttemptMs);
    expect(liveBuild(server.objects)).toBe(a.build);
    const markers = [...server.objects.keys()].filter((k) => k.startsWith("uploads/"));
    expect(markers).toHaveLength(1);
    await expect(prune(target(server), 3, { freshMs: 60_000 })).rejects.toThrow(/^an upload is under way/);
    server.heal();
    await rerunSendsNoCompletePack(server);
    // the failed upload's marker is no longer fresh (as a killed one's would not be): prune runs, and removes it
    await new Promise((r) => setTimeout(r, 300));
    await prune(target(server), 3, { freshMs: 250 });
    expect([...server.objects.keys()].filter((k) => k.startsWith("uploads/"))).toEqual([]);
  });
});

it("the heartbeat keeps prune waiting while a slow upload runs, however long it takes", async () => {
  const { server } = await bucketWithA();
  // three stalls in a row: the upload takes well over a second
  server.inject({ match: (r) => r.op === "UploadPart", fault: "stall", times: 3 });
  const upload = uploadToR2(distB, target(server), { heartbeatMs: 100 });
  await new Promise((r) => setTimeout(r, 1_000));
  const ofUploads = () => [...server.objects].filter(([k]) => k.startsWith("uploads/"));
  const marker = ofUploads().find(([k]) => k.endsWith(".json"))!;
  expect(Date.now() - marker[1].uploaded, "the marker is older than prune's freshness").toBeGreaterThan(400);
  expect(ofUploads().filter(([k]) => k.endsWith(".alive"))).toHaveLength(1);
  await expect(prune(target(server), 3, { freshMs: 400 })).rejects.toThrow(/^an upload is under way/);
  await upload;
  expect(ofUploads()).toEqual([]);
  await expectLiveBuildIs(server.objects, distB);
});

describe("lost answers", () => {
  it("to the marker's PUT: tried again, and the finished upload leaves no marker behind", async () => {
    const { server } = await bucketWithA();
    server.inject({ match: (r) => r.op === "PutObject" && r.key.startsWith("uploads/"), fault: "lose" });
    await uploadToR2(distB, target(server));
    expect(server.requests.filter((r) => r.key.startsWith("uploads/") && r.op === "PutObject")).toHaveLength(2);
    expect([...server.objects.keys()].filter((k) => k.startsWith("uploads/"))).toEqual([]);
    await expectLiveBuildIs(server.objects, distB);
  });

  it("to a pack's CompleteMultipartUpload: the pack is found complete, and neither completed nor sent again", async () => {
    const { server } = await bucketWithA();
    server.inject({ match: (r) => r.op === "CompleteMultipartUpload", fault: "lose" });
    await uploadToR2(distB, target(server));
    const lost = server.requests.find((r) => r.fault === "lose")!;
    const ofPack = server.requests.filter((r) => r.key === lost.key).map((r) => r.op);
    expect(ofPack.filter((op) => op === "CreateMultipartUpload")).toHaveLength(1);
    expect(ofPack.filter((op) => op === "CompleteMultipartUpload")).toHaveLength(1);
    expect(ofPack).toContain("HeadObject");
    expect(server.uploads.size).toBe(0);
    await expectLiveBuildIs(server.objects, distB);
  });

  it("to the switch: the pointer read back names B, so B is reported live (tried again or not)", async () => {
    const { server, a } = await bucketWithA();
    server.inject({ match: (r) => r.op === "PutObject" && r.key === "live.json", fault: "lose" });
    const b = await uploadToR2(distB, target(server));
    expect(b).toMatchObject({ switched: true, previous: a.build });
    // the conditional PUT once, then the read that found B there
    expect(
      server.requests
        .filter((r) => r.key === "live.json")
        .map((r) => r.op)
        .slice(-3),
    ).toEqual(["GetObject", "PutObject", "GetObject"]);
    expect(server.requests.filter((r) => r.key === "live.json" && r.op === "PutObject")).toHaveLength(1);
    await expectLiveBuildIs(server.objects, distB);
    // One attempt only: the switch fails, and the upload asks the bucket before it says anything.
    server.inject({ match: (r) => r.op === "PutObject" && r.key === "live.json", fault: "lose" });
    expect(await rollback(target(server, { tries: 1 }))).toEqual({ build: a.build, previous: b.build });
    expect(liveBuild(server.objects)).toBe(a.build);
  });
});

it("a switch whose answer never comes, and a pointer that cannot be read back: 'unknown', in one line", async () => {
  const { server, a } = await bucketWithA();
  let switching = false;
  server.inject({
    times: Number.POSITIVE_INFINITY,
    fault: "stall",
    match: (r) => {
      if (r.op === "PutObject" && r.key === "live.json") switching = true;
      return switching && r.key === "live.json";
    },
  });
  const run = await timed(uploadToR2(distB, target(server, { tries: 2 })));
  expect(run.error?.message).toMatch(
    /^R2 PUT live\.json \(If-Match: "[0-9a-f]+"\): gave up after 2 attempts .*; live\.json could not be read back either \(R2 GET live\.json: gave up after 2 attempts .*\): whether build [0-9a-f]{16} is live is unknown \(--list says which build is\)$/,
  );
  expect(liveBuild(server.objects)).toBe(a.build);
});

describe("npm run upload:r2 -- --remote", () => {
  const command = async (server: S3Server, env: Record<string, string>, ...args: string[]) => {
    const started = performance.now();
    const run = await promisify(execFile)(
      process.execPath,
      launchArgs("scripts/commands/upload-r2.ts", "--remote", "--bucket", BUCKET, ...args),
      {
        env: {
          ...process.env,
          R2_ENDPOINT: server.endpoint,
          R2_ACCESS_KEY_ID: KEY_ID,
          R2_SECRET_ACCESS_KEY: SECRET,
          R2_CONNECT_TIMEOUT: "1",
          R2_ANSWER_TIMEOUT: "0.5",
          R2_STALL_TIMEOUT: "0.5",
          R2_RETRY_FOR: "1.5",
          ...env,
        },
      },
    ).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    // stderr also carries the progress lines a log gets (progress.ts): the outcome is the rest
    const outcome = run.stderr.split("\n").filter((l) => l !== "" && !/^R2: [a-z ]+: .* new bodies packed/.test(l));
    return { ...run, errors: outcome, ms: performance.now() - started };
  };

  it("a switch whose answer never comes and that never landed: 'not live', exit 1; a lost answer to one that landed: live, exit 0; --rollback alike", async () => {
    const { server, a } = await bucketWithA();
    server.inject({
      times: Number.POSITIVE_INFINITY,
      match: (r) => r.op === "PutObject" && r.key === "live.json",
      fault: "stall",
    });
    const notLive = await command(server, {}, "--dist", distB);
    expect(notLive.code).toBe(1);
    expect(notLive.errors, notLive.stderr).toHaveLength(1);
    expect(notLive.errors[0]).toMatch(
      /^R2 PUT live\.json \(If-Match: "[0-9a-f]+"\): gave up after \d+ attempts in \d+\.\d s; last: no answer within 0\.50 s of the request; live\.json names build [0-9a-f]{16}: build [0-9a-f]{16} is not live$/,
    );
    expect(notLive.stderr + notLive.stdout).not.toContain(SECRET);
    expect(liveBuild(server.objects)).toBe(a.build);
    await expectLiveBuildIs(server.objects, distA);

    server.heal();
    server.inject({ match: (r) => r.op === "PutObject" && r.key === "live.json", fault: "lose" });
    const live = await command(server, { R2_TRIES: "1" }, "--dist", distB);
    expect(live.code, live.stderr).toBe(0);
    const b = { build: liveBuild(server.objects)! };
    expect(live.stdout).toMatch(/live now \(was [0-9a-f]{16}\)\n$/);
    await expectLiveBuildIs(server.objects, distB);

    server.inject({ match: (r) => r.op === "PutObject" && r.key === "live.json", fault: "lose" });
    const back = await command(server, { R2_TRIES: "1" }, "--rollback", "--dist", distB);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(new RegExp(`build ${a.build} is live again`));
    server.inject({
      times: Number.POSITIVE_INFINITY,
      match: (r) => r.op === "PutObject" && r.key === "live.json",
      fault: "stall",
    });
    const stuck = await command(server, {}, "--rollback", "--dist", distB);
    expect(stuck.code).toBe(1);
    expect(stuck.errors).toHaveLength(1);
    expect(stuck.errors[0]).toMatch(new RegExp(`live\\.json names build ${a.build}: build ${b.build} is not live$`));
    expect(liveBuild(server.objects)).toBe(a.build);
  }, 60_000);

  it("an endpoint that stops answering altogether: exit 1 with one line, within the deadlines' bound", async () => {
    const { server } = await bucketWithA();
    server.inject({ times: Number.POSITIVE_INFINITY, match: () => true, fault: "stall" });
    const run = await command(server, {}, "--dist", distB);
    expect(run.code, run.stderr).toBe(1);
    expect(run.errors, run.stderr).toHaveLength(1);
    expect(run.errors[0]).toMatch(
      /^upload to http:\/\/127\.0\.0\.1:\d+\/test-bucket failed: R2 PUT uploads\/\S+\.json: gave up after \d+ attempts in \d+\.\d s; last: no answer within 0\.50 s of the request$/,
    );
    expect(run.stderr).not.toContain(SECRET);
    // the process's start-up (about a second) plus one request's bound
    const bound = upperBounds(
      { connectMs: 1_000, answerMs: 500, stallMs: 500 },
      { tries: 8, budgetMs: 1_500, baseDelayMs: 500, maxDelayMs: 8_000 },
    );
    expect(run.ms).toBeLessThan(bound.requestMs + 5_000);
    await expectLiveBuildIs(server.objects, distA);
  }, 60_000);
});
