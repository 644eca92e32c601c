// Every host the conformance suite runs against. Adding a host is one entry in `hosts`.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BuildLayout } from "../../../scripts/api/runtime/build-index.ts";
import { findJsModule, findNginx, startNginx } from "../../../scripts/hosts/nginx/start.ts";
import { serveProcess, waitFor } from "../hosts/serve-process.ts";
import { startClosingRelay } from "./connection-closer.ts";

export interface RunningHost {
  /** e.g. http://127.0.0.1:41234 (no trailing slash) */
  origin: string;
  stop(): Promise<void>;
}

export interface Host {
  name: string;
  /** undefined when usable, else why not (e.g. "nginx not installed") */
  unavailable(): string | undefined;
  start(distDir: string): Promise<RunningHost>;
  /** rules this host is documented not to honour: exact test names to skip for it */
  knownGaps?: string[];
  /** an unavailable optional host only warns, even under CI=true */
  optional?: boolean;
  /** content codings it serves from the build's precompressed files (build --compress) */
  encodings?: ("br" | "gzip")[];
  /**
   * Tests it skips because another host runs them on the very same config lines (its config differs from that host's
   * in one route only): their names, and that host.
   */
  sameConfigAs?: { host: string; tests: string[] };
  /**
   * Its own process (or workerd), seconds of CPU to start: the project's setup starts it once for every file of the
   * suite (shared-hosts.ts) rather than each file its own.
   */
  startOnce?: boolean;
  /** the layout of the build it is started on (default pages): the suite's setup builds the catalog in both */
  layout?: BuildLayout;
  /** runs only a seeded sample of the suite (inSample), to keep npm test within its time */
  sample?: Sample;
  /** true: it answers MCP at /mcp (M4: the Node server, the Worker); false: it has none (P9); absent: unknown */
  mcp?: boolean;
}

/** Every test whose name matches `always`, and of the others those whose hash with `seed` falls below `fraction`. */
export interface Sample {
  seed: number;
  always: RegExp;
  fraction: number;
}

/** Whether a test (by its name) is in a host's sample: the same tests on every run and machine. */
export const inSample = (sample: Sample, name: string): boolean =>
  sample.always.test(name) ||
  createHash("sha256").update(`${sample.seed} ${name}`).digest().readUInt32BE(0) / 2 ** 32 < sample.fraction;

const node: Host = {
  name: "node",
  unavailable: () => undefined,
  async start(distDir) {
    const { startServer } = await import("../../../scripts/hosts/node/server/start-server.ts");
    const server = await startServer({ distDir, port: 0, host: "127.0.0.1" });
    return { origin: server.url.replace(/\/$/, ""), stop: () => server.close() };
  },
  encodings: ["br", "gzip"],
  mcp: true,
};

// The same server over the catalog built with --layout runs: list pages from the runs, answered exactly as the page
// files (L2). It differs from `node` only in how a list page is read, so every rule of list pages, their headers and
// codings runs on it (Q, O, H), and a seeded quarter of the others: 113 of the suite's 171 tests, half its time on
// the sample catalog (the whole suite passes on it: CONFORMANCE_HOSTS=node-runs CONFORMANCE_SAMPLE=all).
const nodeRuns: Host = {
  ...node,
  name: "node-runs",
  layout: "runs",
  sample: process.env.CONFORMANCE_SAMPLE === "all" ? undefined : { seed: 48, always: /^(Q|O|H)\d/, fraction: 0.25 },
};

// `npm run serve -- --workers 2`: the same server as two processes sharing the port (node:cluster), as users run it.
const nodeWorkers: Host = {
  name: "node-workers",
  unavailable: () => undefined,
  async start(distDir) {
    const run = serveProcess(["--dist", distDir, "--workers", "2"], { PORT: "0", HOST: "127.0.0.1" });
    let gone = false;
    void run.exited.then(() => (gone = true));
    const url = await waitFor(() => {
      const { stdout, stderr } = run.output();
      if (gone) throw new Error(`npm run serve -- --workers 2 exited:\n${stdout}${stderr}`);
      return /(http:\/\/\S+?)\/v1\s/.exec(stdout)?.[1];
    });
    return {
      origin: url.replace("//localhost", "//127.0.0.1"),
      stop: async () => {
        run.child.kill("SIGTERM");
        await run.exited;
      },
    };
  },
  encodings: ["br", "gzip"],
  startOnce: true,
  mcp: true,
};

// Measured on the sample catalog (README "Hosts", serve row): serve ignores the query and the method and has one
// 404 page, and serves dist/v1 only (so not the docs assets). Tests that read whole lists through ?limit=100 (D1, D5,
// O1–O3, Q9) fail from the ignored query alone.
const SERVE_GAPS = [
  // derived.test.ts
  "D1 a tool's detail publishes its content's values",
  "D5 toolCount and mcpReadyCount count the category's tools",
  "D5 topTool is the editorial pick (content topToolPick), else the highest-rated tool",
  // fuzz.test.ts
  "Q1–Q9 fuzz: random /software query strings answer as the rules predict",
  "P1–P3 P7 fuzz: random paths answer as the rules predict",
  "P3 fuzz: encoded separators, backslashes, NUL and CRLF inside segments never split or escape them",
  // headers.test.ts
  "H1 H2 H4 400 and 404 responses: JSON error bodies with the headers",
  "H1 H2 H4 405 responses: JSON error body with the headers",
  "H1 H2 204 responses: the headers, no body",
  "H1 H2 304 responses: the headers, no body",
  "H3 a resource keeps its ETag; different bodies have different ETags",
  "H3 If-None-Match with the exact ETag → 304",
  "H3 If-None-Match compares weakly: W/ form and plain form → 304",
  "H3 If-None-Match list holding the ETag → 304",
  "H3 If-None-Match: * → 304",
  "H3 HEAD with a matching If-None-Match → 304",
  "H3 If-None-Match leaves errors alone: no current representation, no 304",
  "H4 every error code answers { error: { code, message, hint? } }",
  // order.test.ts
  "O1 /software lists every tool by lower-cased name (UTF-16 code units), ties by slug",
  "Q9 every page slice for every limit 1..100 equals the slice of the full list",
  "O1 the category filter keeps the order and holds exactly the tools whose categories include the slug",
  "Q9 filtered pages are slices of the filtered list",
  "O2 /categories lists the categories with at least two tools, by name",
  "O3 /best agrees with each tool's detail (lowestPrice, hasFreePlan, url, name)",
  "O4 /best of an unknown category → 404 category_not_found",
  "O4 /best of a category with no tools → 404 category_not_found",
  // paths.test.ts
  "P1 another or a case-changed base path answers 404 not_found",
  "P1 outside the base path only the docs assets of routes.json are served, at exactly their paths",
  "P2 only one trailing slash is ignored: two answer 404 not_found",
  "P3 slugs match exactly: no case folding",
  "P3 %2e%2e is a decoded segment, not a step up: 404 software_not_found",
  "P3 %2f and %5c inside a segment do not split it",
  "P3 %00 in a segment is a character no slug has",
  "P3 a segment with malformed percent-encoding matches nothing: 404 not_found",
  "P3 an empty segment matches nothing: 404 not_found",
  "P4 HEAD has the same status and headers as GET, and no body",
  "P5 OPTIONS answers 204 with CORS preflight headers on any path",
  "P5 Access-Control-Allow-Headers echoes Access-Control-Request-Headers",
  "P6 POST → 405 method_not_allowed with Allow: GET, HEAD, OPTIONS",
  "P6 PUT → 405 method_not_allowed with Allow: GET, HEAD, OPTIONS",
  "P6 DELETE → 405 method_not_allowed with Allow: GET, HEAD, OPTIONS",
  "P6 PATCH → 405 method_not_allowed with Allow: GET, HEAD, OPTIONS",
  "P6 other methods (PROPFIND, PURGE, TRACE, MKCOL) → 405 method_not_allowed",
  "P6 the method is checked before the path and the query",
  "P7 the files behind endpoints are not served by their own path",
  "P7 no file or directory of dist/ is served by its own path, and no directory is listed",
  "P7 dotfiles planted in dist/ are never served",
  "P7 dotfiles and config names answer 404 not_found",
  // query.test.ts
  "Q1 an encoded limit is not decoded: limit=%31 → 400 invalid_limit",
  "Q1 an encoded category is not decoded → 404 category_not_found",
  "Q2 limit=0 → 400 invalid_limit",
  "Q2 limit=101 → 400 invalid_limit",
  "Q2 limit=01 → 400 invalid_limit",
  "Q2 limit=+5 → 400 invalid_limit",
  "Q2 limit=-1 → 400 invalid_limit",
  "Q2 limit=' 5' (sent as %205) → 400 invalid_limit",
  "Q2 limit='5 ' (sent as 5%20) → 400 invalid_limit",
  "Q2 limit=5.0 → 400 invalid_limit",
  "Q2 limit=empty → 400 invalid_limit",
  "Q2 limit=with no = → 400 invalid_limit",
  "Q2 limit=1e1 → 400 invalid_limit",
  "Q2 limit=0x10 → 400 invalid_limit",
  "Q2 limit=1000 → 400 invalid_limit",
  "Q2 limit=abc → 400 invalid_limit",
  "Q2 limit=fullwidth ５ → 400 invalid_limit",
  "Q2 limit=5; → 400 invalid_limit",
  "Q2 limit 1, 9, 10, 99, 100 are valid and echoed",
  "Q2 absent limit is 20",
  "Q3 offset=-1 → 400 invalid_offset",
  "Q3 offset=01 → 400 invalid_offset",
  "Q3 offset=00 → 400 invalid_offset",
  "Q3 offset=+1 → 400 invalid_offset",
  "Q3 offset=1.0 → 400 invalid_offset",
  "Q3 offset=empty → 400 invalid_offset",
  "Q3 offset=with no = → 400 invalid_offset",
  "Q3 offset=1e1 → 400 invalid_offset",
  "Q3 offset=' 1' (sent as %201) → 400 invalid_offset",
  "Q3 offset=%30 → 400 invalid_offset",
  "Q3 offset=0x1 → 400 invalid_offset",
  "Q3 offset=abc → 400 invalid_offset",
  "Q3 offset 0 and 1 are valid and echoed; absent offset is 0",
  "Q3 a 30-digit offset is valid syntax → 400 offset_out_of_range",
  "Q4 offset = total → 200 with empty data",
  "Q4 offset = total + 1 → 400 offset_out_of_range whose hint names the total",
  "Q4 with a category, the range is the category's total",
  "Q5 unknown category → 404 category_not_found with a hint pointing at /categories",
  "Q5 a category with no tools → 200 empty page",
  "Q5 a one-tool category (absent from /categories) still filters → 200",
  "Q6 limit given twice → 400 invalid_limit",
  "Q6 offset given twice → 400 invalid_offset",
  "Q6 category given twice → 400 category_not_found",
  "Q7 unknown parameters are ignored",
  "Q8 limit before offset: ?limit=0&offset=-1 → 400 invalid_limit",
  "Q8 limit before offset, whatever the parameter order: ?offset=-1&limit=0 → 400 invalid_limit",
  "Q8 limit before category: ?category=nope&limit=101 → 400 invalid_limit",
  "Q8 repeated limit before offset: ?limit=1&limit=2&offset=x → 400 invalid_limit",
  "Q8 offset syntax before category: ?category=nope&offset=x → 400 invalid_offset",
  "Q8 repeated offset before unknown category: ?offset=1&offset=2&category=nope → 400 invalid_offset",
  "Q8 category before offset range: ?category=nope&offset={total+1} → 404 category_not_found",
  "Q8 repeated category before offset range: ?category={category}&category={category}&offset={total+1} → 400 category_not_found",
  "Q8 offset range is checked against the category: ?category={category}&offset={categoryTotal+1} → 400 offset_out_of_range",
  "Q8 limit before everything: ?limit=0&offset=01&category=nope&category=x → 400 invalid_limit",
  "Q9 meta echoes the given limit, offset and category",
  "Q9 the last page holds the remainder",
  // search.test.ts: the answer depends on the query, which serve never sees (/v1/search is not_found)
  "S1 every word's first letter, first three letters and whole word find the tools that have it",
  "S1 random prefixes answer as the brute-force matcher",
  "S3 a valid q that matches nothing → 200 with no data and total 0",
  "S2 other parameters are ignored, and q keeps its meaning wherever it stands",
  "S2 q absent → 400 invalid_query with a hint",
  "S2 q absent, other parameters given → 400 invalid_query with a hint",
  "S2 q empty → 400 invalid_query with a hint",
  "S2 q with no = → 400 invalid_query with a hint",
  "S2 q given twice → 400 invalid_query with a hint",
  "S2 q upper case → 400 invalid_query with a hint",
  "S2 q 33 characters → 400 invalid_query with a hint",
  "S2 q a space (sent as %20) → 400 invalid_query with a hint",
  "S2 q encoded letters are not decoded → 400 invalid_query with a hint",
  "S2 q a hyphen → 400 invalid_query with a hint",
  "S2 q an accented letter (sent as UTF-8) → 400 invalid_query with a hint",
  "S2 q a plus → 400 invalid_query with a hint",
  "S2 q Q (the name is case-sensitive) → 400 invalid_query with a hint",
  "S3 search answers carry ETag and Cache-Control, and If-None-Match answers 304",
  // export-sync.test.ts: the tree lists the search answers, which serve cannot answer
  "E2 the hash tree names exactly the bodies served by URL and the lists, each body with the hash and size the host answers",
  // security.test.ts
  "security: backslashes and %5c never leave the API",
  "security: NUL %00 never truncates a path into a file",
  "security: CRLF %0d%0a in a path or query injects no header",
  "security: dotfiles and config files inside and outside the base path are not served",
  "security: category, limit and offset values never become file paths (Q1, Q5)",
];

// `npx serve dist`: the real serve CLI reading dist/serve.json (scripts/hosts/static/serve-json.ts). Partial by nature:
// knownGaps is the measured list (docs/hosts/static-hosts.md), so every other test must pass on it.
const serve: Host = {
  name: "serve",
  unavailable: () => undefined,
  async start(distDir) {
    const { startServe } = await import("../hosts/serve-package.ts");
    return startServe(distDir);
  },
  knownGaps: SERVE_GAPS,
  startOnce: true,
  mcp: false,
};

// The real nginx over dist/nginx/*.conf (scripts/hosts/nginx/adapter.ts, scripts/hosts/nginx/start.ts); gaps:
// docs/hosts/nginx.md.
const nginx: Host = {
  name: "nginx",
  unavailable: () =>
    findNginx() ? undefined : "nginx is not installed (apt-get install nginx-light, or set NGINX_BIN)",
  async start(distDir) {
    const server = await startNginx({ distDir, port: 0, host: "127.0.0.1" });
    return { origin: server.url, stop: () => server.close() };
  },
  knownGaps: [],
  // gzip_static is in Debian's nginx; brotli needs a module it does not ship
  encodings: ["gzip"],
  startOnce: true,
  mcp: false,
};

// nginx over the same catalog built with --layout runs: list pages come from the njs handler (list-pages.js), every
// other answer from the same config lines as the nginx host's. Those are tested there: here the list pages, the
// query, every error kind, the headers, HEAD, 304 and gzip, and the fuzzed query strings (seeded); not the tests of
// other routes that take seconds (README's npm test budget), each of which the nginx host runs on the same lines.
const nginxRuns: Host = {
  ...nginx,
  name: "nginx-runs",
  unavailable: () =>
    nginx.unavailable() ??
    (findJsModule(findNginx()!)
      ? undefined
      : "nginx's JavaScript module is not installed (apt-get install libnginx-mod-http-js, or set NGINX_JS_MODULE)"),
  layout: "runs",
  sameConfigAs: {
    host: "nginx",
    tests: [
      // export-sync.test.ts
      "E2 the hash tree names exactly the bodies served by URL, each with the hash and size the host answers",
      // paths.test.ts
      "P7 no file or directory of dist/ is served by its own path, and no directory is listed",
      "P1 outside the base path only the docs assets of routes.json are served, at exactly their paths",
      // fuzz.test.ts: paths (the query's fuzz runs)
      "P3 fuzz: encoded separators, backslashes, NUL and CRLF inside segments never split or escape them",
      "P1–P3 P7 fuzz: random paths answer as the rules predict",
      // search.test.ts
      "S1 every word's first letter, first three letters and whole word find the tools that have it",
      "S1 random prefixes answer as the brute-force matcher",
      // derived.test.ts
      "D1 a tool's detail publishes its content's values",
    ],
  },
};

// The generated Cloudflare Worker (dist/cloudflare/worker.js, scripts/hosts/cloudflare/adapter.ts) in workerd through
// Miniflare, offline, behind a relay that only closes sockets workerd leaves open (connection-closer.ts says why).
// knownGaps: only what workerd does before the Worker runs (measured; docs/hosts/cloudflare.md).
// Measured with miniflare 4.20260426.0 (workerd 2026-04-26); each request is answered before the Worker sees it.
const CLOUDFLARE_GAPS = [
  // GET http://127.0.0.1:PORT/v1/categories (absolute form) → 500 "Internal Server Error" (text/plain): workerd's URL parser
  "P1 an absolute-form request target answers as its origin-form (RFC 9112 §3.2.2)",
  "security: absolute-form targets never reach outside the API",
  // GET /v1/software/%2e%2e → 404 not_found, not software_not_found: workerd resolves %2e%2e as `..` (to /v1/)
  "P3 %2e%2e is a decoded segment, not a step up: 404 software_not_found",
  // GET \..\routes.json → 500 "Internal Server Error" (text/plain): workerd's URL parser refuses the target
  "security: backslashes and %5c never leave the API",
  // a 64 KiB header is accepted by workerd, so the Worker answers 200 (the test wants a refusal or a close)
  "security: a 64 KiB request line is refused (404/414/431/400 or closed), never served",
  // CONNECT 127.0.0.1:1 → 500 "Internal Server Error": "Incoming CONNECT on a worker not supported" (lower-case
  // tokens such as `get` get workerd's own 501 text/plain, which that test accepts)
  "security: an unknown or lower-case method token never succeeds (P6: 405, or a parser's 400/501)",
];

const miniflareMissing = () => {
  try {
    createRequire(import.meta.url).resolve("miniflare");
    return undefined;
  } catch {
    return "miniflare is not installed (npm ci)";
  }
};

const cloudflareAssets: Host = {
  name: "cloudflare-assets",
  unavailable: miniflareMissing,
  async start(distDir) {
    const { startLocalWorker } = await import("../../../scripts/hosts/cloudflare/local/workerd.ts");
    const worker = await startLocalWorker({ distDir, mode: "assets", port: 0 });
    const relay = await startClosingRelay(worker.url);
    return { origin: relay.origin, stop: () => relay.close().finally(() => worker.close()) };
  },
  knownGaps: CLOUDFLARE_GAPS,
  startOnce: true,
  mcp: true,
};

// R2 on a local bucket Miniflare persists in a temporary folder, brought up to date by the upload command's code.
// Local R2 puts cost ~5–12 ms each here, so this host runs in a project of its own (conformance-r2), whose setup
// fills the bucket once; over an unfilled dist/ it fills its own.
const cloudflareR2: Host = {
  name: "cloudflare-r2",
  unavailable: miniflareMissing,
  async start(distDir) {
    const { startLocalWorker } = await import("../../../scripts/hosts/cloudflare/local/workerd.ts");
    const { uploadToR2 } = await import("../../../scripts/hosts/cloudflare/r2/upload.ts");
    const persist = await mkdtemp(join(tmpdir(), "conformance-r2-"));
    // A bucket filled by the project's setup (build-r2-catalog.ts): a copy, so no two workerd share one store.
    if (existsSync(`${distDir}.r2`)) await cp(`${distDir}.r2`, persist, { recursive: true });
    const worker = await startLocalWorker({ distDir, mode: "r2", r2Persist: persist, port: 0, uploader: true });
    await uploadToR2(distDir, await worker.uploadTarget());
    const relay = await startClosingRelay(worker.url);
    return {
      origin: relay.origin,
      stop: () =>
        relay.close().finally(() => worker.close().finally(() => rm(persist, { recursive: true, force: true }))),
    };
  },
  knownGaps: CLOUDFLARE_GAPS,
  startOnce: true,
  mcp: true,
};

// CONFORMANCE_ORIGIN=http://127.0.0.1:8080: a host started elsewhere, serving a build of the same catalog
const external: Host = {
  name: "external",
  optional: true,
  unavailable: () => (process.env.CONFORMANCE_ORIGIN ? undefined : "CONFORMANCE_ORIGIN is not set"),
  start: async () => ({ origin: process.env.CONFORMANCE_ORIGIN!.replace(/\/$/, ""), stop: async () => {} }),
};

/** The hosts CONFORMANCE_HOSTS names (a comma-separated list), or undefined when it names none: all of them. */
export const selectedHosts = (env: NodeJS.ProcessEnv = process.env): string[] | undefined =>
  env.CONFORMANCE_HOSTS?.split(",").map((h) => h.trim());

/** Every host for an environment: cloudflare-r2 only when CONFORMANCE_HOSTS names it (the conformance-r2 project). */
export const hostsOf = (env: NodeJS.ProcessEnv): Host[] => [
  node,
  nodeRuns,
  nodeWorkers,
  serve,
  nginx,
  nginxRuns,
  cloudflareAssets,
  ...(selectedHosts(env)?.includes(cloudflareR2.name) ? [cloudflareR2] : []),
  ...(env.CONFORMANCE_ORIGIN ? [external] : []),
];

export const hosts: Host[] = hostsOf(process.env);
