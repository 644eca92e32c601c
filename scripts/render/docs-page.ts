// The docs page at the site root (outside the API base path): Redoc rendering the OpenAPI description, served from
// our own files only (no CDN, no web fonts), and a short list of real requests to try against this catalog.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createResolver, type Resolution } from "../api/runtime/resolve-request.ts";
import {
  alignedLimitsFile,
  DOCS_ASSETS,
  MAX_LIMIT,
  MAX_SEARCH_PREFIX,
  type RouteLayout,
  type RouteTable,
  SEARCH_LIMIT,
} from "../api/runtime/route-table.ts";
import { hashOfFile } from "../launcher/file-hashes.cjs";
import type { Catalog } from "../model/derive.ts";
import { firstNameWord } from "../model/search-words.ts";
import { lazyFile, type OutputFile } from "./output.ts";

/** Where the page files live in dist/ and the URL path each is served at: the route table's assets. */
export const DOCS_FILES = DOCS_ASSETS;

const require = createRequire(import.meta.url);
// The package's `exports` does not list its bundles, so resolve the package root and read beside it.
const redocDir = () => require.resolve("redoc/package.json").replace(/package\.json$/, "bundles/");

// Redoc 2.5 shows its vendor logo from a CDN in the sidebar footer; the page must load nothing from elsewhere, so that
// one URL becomes an inline blank image (Redoc hides the logo on error anyway). Exactly one occurrence, or the build fails.
export const REDOC_CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
export const BLANK_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

export function withoutCdnLogo(bundle: Buffer): Uint8Array {
  // In bytes: decoding the whole bundle and encoding it again would cost every build time for one small cut.
  const quoted = Buffer.from(JSON.stringify(REDOC_CDN_LOGO));
  const at = bundle.indexOf(quoted);
  if (at < 0 || bundle.indexOf(quoted, at + 1) >= 0)
    throw new Error(`redoc.standalone.js: expected ${quoted} exactly once (Redoc upgraded? re-check the docs page)`);
  return new Uint8Array(
    Buffer.concat([
      bundle.subarray(0, at),
      Buffer.from(JSON.stringify(BLANK_IMAGE)),
      bundle.subarray(at + quoted.length),
    ]),
  );
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface TryRequest {
  method: "GET";
  /** path and query below the site root, e.g. /v1/software?limit=5 */
  target: string;
  /** what the answer shows, in a few words */
  shows: string;
  /** the status this catalog answers */
  status: number;
  /** the file of the build that answers it: what a file-only host serves instead (./v1/categories.json) */
  file: string;
  /** what the answer shows when a file host holds this list at another page size instead, `{limit}` its size */
  showsAtLimit?: string;
}

/** A few requests that answer real data of this catalog (and one error), for the page and for tests. */
export function tryRequests(catalog: Catalog, table: RouteTable): TryRequest[] {
  const base = table.basePath;
  const resolver = createResolver(table);
  // Every file these requests name is built, so the first candidate answers; an error answers with its body's file.
  const fileOf = (target: string) => {
    const r = resolver.resolve("GET", target, () => true) as Resolution<true>;
    if (r.kind === "file") return r.file;
    if (r.kind === "error") return table.errors[r.id].file;
    throw new Error(`docs page: ${target} resolves to a preflight`);
  };
  const get = (target: string, shows: string, status = 200): TryRequest => ({
    method: "GET",
    target: base + target,
    shows,
    status,
    file: fileOf(base + target),
  });
  const out: TryRequest[] = [
    {
      ...get("/software?limit=5", "The first five tools, in name order"),
      showsAtLimit: "The first {limit} tools, in name order",
    },
  ];
  const tool = catalog.tools[0];
  if (tool) out.push(get(`/software/${tool.slug}`, `One tool in full: ${tool.name}`));
  out.push(get("/categories", "Categories with their counts and top tool"));
  const category = catalog.categories.find((c) => c.listed) ?? catalog.categories.find((c) => c.tools.length > 0);
  if (category) {
    out.push(get(`/software?category=${category.slug}`, `Only the tools of ${category.name}`));
    out.push(get(`/best/${category.slug}`, `${category.name}, cheapest paid plan first`));
  }
  out.push(get("/software?limit=0", `An error: limit must be 1 to ${MAX_LIMIT}`, 400));
  out.push(get("/openapi.json", "This reference as OpenAPI 3.1"));
  return out;
}

// One look for the page and Redoc: the same fonts, text colour, accent and GET green as Redoc's theme below.
const FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";
const CODE_FONT = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace";
const COLOURS = {
  text: "#333333",
  primary: "#32329f",
  get: "#2f8132",
  error: "#cc3333",
  border: "#e1e4e8",
  panel: "#fafafa",
};

/** The try-it box: a grid of cards (method, path, what it shows) that folds to one column on a phone. */
const TRY_STYLE = `
    body { margin: 0; color: ${COLOURS.text}; font-family: ${FONT}; }
    #try { box-sizing: border-box; padding: 24px 40px 28px; background: ${COLOURS.panel}; border-bottom: 1px solid ${COLOURS.border}; }
    #try h2 { margin: 0 0 4px; font-size: 1.57em; font-weight: 400; line-height: 1.3; }
    #try p { margin: 0 0 16px; font-size: 14px; line-height: 1.5; overflow-wrap: anywhere; }
    #try code { font-family: ${CODE_FONT}; font-size: 13px; }
    #try ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 10px; grid-template-columns: repeat(auto-fill, minmax(min(100%, 300px), 1fr)); }
    #try li { min-width: 0; }
    #try a { display: flex; flex-direction: column; gap: 4px; height: 100%; box-sizing: border-box; padding: 10px 12px; border: 1px solid ${COLOURS.border};
      border-radius: 4px; background: #fff; color: inherit; text-decoration: none; }
    #try a:hover, #try a:focus-visible { border-color: ${COLOURS.primary}; box-shadow: 0 1px 4px rgba(50, 50, 159, 0.15); outline: none; }
    #try .line { display: flex; align-items: baseline; gap: 8px; min-width: 0; }
    #try .method { flex: none; padding: 2px 6px; border-radius: 3px; background: ${COLOURS.get}; color: #fff; font: 600 10px/1.4 ${FONT}; letter-spacing: 0.04em; }
    #try .path { min-width: 0; color: ${COLOURS.primary}; overflow-wrap: anywhere; }
    #try .shows { font-size: 13px; line-height: 1.4; color: #555; }
    #try .status { flex: none; margin-left: auto; font: 12px ${CODE_FONT}; color: ${COLOURS.get}; }
    #try .status.error { color: ${COLOURS.error}; }
    #try .files-note { display: none; }
    #try.files .files-note { display: block; }
    #try.files .status.error { display: none; }
    #search { box-sizing: border-box; padding: 0 40px 24px; background: ${COLOURS.panel}; border-bottom: 1px solid ${COLOURS.border}; font-size: 14px; }
    #search label { display: block; margin: 0 0 6px; font-weight: 600; }
    #search input { box-sizing: border-box; width: min(100%, 360px); padding: 6px 10px; border: 1px solid ${COLOURS.border}; border-radius: 4px; font: 14px ${FONT}; }
    #search p { margin: 8px 0 4px; color: #555; overflow-wrap: anywhere; }
    #search ol { margin: 0; padding-left: 20px; line-height: 1.6; }
    #search a { color: ${COLOURS.primary}; }
    #about { box-sizing: border-box; padding: 28px 40px 8px; background: ${COLOURS.panel}; }
    #about h1 { margin: 0 0 6px; font-size: 2em; font-weight: 500; line-height: 1.2; }
    #about p { margin: 0; font-size: 15px; line-height: 1.5; max-width: 60em; }
    @media (max-width: 600px) { #try { padding: 20px 16px 22px; } #about { padding: 22px 16px 6px; } #search { padding: 0 16px 20px; } }`;

/**
 * Whether an API serves the page, as a JavaScript expression (a Promise of a boolean): only an API answers a query.
 * A file host that maps paths onto files (`npx serve` on a static copy) answers a list's first page whatever the query.
 */
const apiProbe = (base: string) =>
  `fetch(".${base}/software?limit=1")` +
  `.then((r) => (r.ok && (r.headers.get("content-type") || "").includes("json") ? r.json() : null))` +
  ".then((body) => Boolean(body && body.meta && body.meta.limit === 1), () => false)";

/**
 * On a host that only serves files (GitHub Pages, S3, a static copy), a request path is no file: the cards then open
 * the file that answers each request. Told by asking for a list of one tool (apiProbe). A static copy with aligned
 * pages (`--pages aligned`) holds a list's pages at a few limits only, named in its limits file: a card whose
 * page is not there opens the aligned page that holds its first tool (at the next larger limit there is).
 */
const fileHostScript = (base: string, limitsFile: string) => `
(async () => {
  if (await ${apiProbe(base)}) return;
  document.getElementById("try").classList.add("files");
  const aligned = await fetch(${JSON.stringify(limitsFile)}).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  const limits = aligned && Array.isArray(aligned.limits) ? aligned.limits : null;
  const existing = (file) => {
    const page = limits && /^(.*\\/pages\\/.+\\/)(\\d+)\\/(\\d+)\\.json$/.exec(file);
    if (!page) return file;
    const [limit, offset] = [Number(page[2]), Number(page[3])];
    if (limits.includes(limit) && offset % limit === 0) return file;
    const chosen = limits.find((l) => l >= limit) || limits[limits.length - 1];
    return page[1] + chosen + "/" + Math.floor(offset / chosen) * chosen + ".json";
  };
  for (const a of document.querySelectorAll("#try a[data-file]")) {
    const file = existing(a.dataset.file);
    a.title = "answers " + a.getAttribute("href").slice(1);
    a.href = file;
    a.querySelector(".path").textContent = file.slice(1);
    // A page held at another size shows that many tools: the card says so.
    const size = /\\/(\\d+)\\/\\d+\\.json$/.exec(file);
    if (file !== a.dataset.file && size && a.dataset.showsAtLimit)
      a.querySelector(".shows").textContent = a.dataset.showsAtLimit.replace("{limit}", size[1]);
  }
})();`;

/**
 * The search box: the typed text folded as names are for search (accents removed, lower-cased, split at anything but
 * a-z and 0-9). One word is asked of the search endpoint; on a file host, of the answer's file, or the empty answer.
 * Several words ("sparrow sms": each must start a word of the name) are matched here against the catalog body, read
 * once, which lies at the same path on an API and on a file host.
 */
const searchScript = (base: string) => `
(() => {
  const input = document.getElementById("search-q");
  const status = document.getElementById("search-status");
  const list = document.getElementById("search-results");
  const json = async (url) => {
    const res = await fetch(url).catch(() => null);
    const type = res && res.ok ? res.headers.get("content-type") || "" : "";
    return type.includes("json") ? res.json().catch(() => null) : null;
  };
  const wordsOf = (text) => text.normalize("NFKD").replace(/\\p{M}/gu, "").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  let exported;
  let api;
  const severalWords = async (words) => {
    exported ??= json(".${base}/export/catalog.json");
    api ??= ${apiProbe(base)};
    const catalog = await exported;
    if (!catalog) return { body: null, files: false };
    const data = catalog.data.software.filter((tool) => {
      const own = wordsOf(tool.name);
      return words.every((w) => own.some((word) => word.startsWith(w)));
    });
    return { body: { data: data.slice(0, ${SEARCH_LIMIT}), meta: { total: data.length } }, files: !(await api) };
  };
  const oneWord = async (q) => {
    const body = await json(".${base}/search?q=" + q);
    if (body) return { body, files: false };
    return { body: (await json(".${base}/search/" + q + ".json")) || (await json(".${base}/search/_none.json")), files: true };
  };
  let latest = 0;
  input.addEventListener("input", async () => {
    const ticket = ++latest;
    const words = wordsOf(input.value).map((w) => w.slice(0, ${MAX_SEARCH_PREFIX}));
    list.replaceChildren();
    if (words.length === 0) { status.textContent = ""; return; }
    const { body, files } = words.length === 1 ? await oneWord(words[0]) : await severalWords(words);
    if (ticket !== latest) return;
    if (!body) { status.textContent = "Search is not available on this host."; return; }
    const total = body.meta.total;
    const quoted = words.map((w) => "\u201c" + w + "\u201d").join(", ");
    status.textContent = (total === 0 ? "No tool" : total === 1 ? "1 tool" : total + " tools") +
      (words.length === 1 ? " with a word starting with " : " with words starting with each of ") + quoted +
      (total > body.data.length ? ", the first " + body.data.length + " shown" : "");
    for (const tool of body.data) {
      const a = document.createElement("a");
      a.href = ".${base}/software/" + tool.slug + (files ? ".json" : "");
      a.textContent = tool.name;
      const li = document.createElement("li");
      li.append(a);
      list.append(li);
    }
  });
})();`;

function tryCard(r: TryRequest): string {
  const kind = r.status >= 400 ? "status error" : "status";
  const showsAtLimit = r.showsAtLimit ? ` data-shows-at-limit="${escapeHtml(r.showsAtLimit)}"` : "";
  return (
    `      <li><a href=".${escapeHtml(r.target)}" data-file="./${escapeHtml(r.file)}"${showsAtLimit}>` +
    `<span class="line"><span class="method">${r.method}</span><code class="path">${escapeHtml(r.target)}</code>` +
    `<span class="${kind}" title="answers HTTP ${r.status}">${r.status}</span></span>` +
    `<span class="shows">${escapeHtml(r.shows)}</span></a></li>`
  );
}

/** A word start the search box suggests: the first word of the first tool's name, cut to four letters. */
const searchExample = (catalog: Catalog) => firstNameWord(catalog.tools)?.slice(0, 4) ?? "mail";

export function docsPageHtml(catalog: Catalog, table: RouteTable, paths: RouteLayout): string {
  const specUrl = `./${paths.openapi}`;
  const apiBase = `${catalog.site.apiBaseUrl.replace(/\/+$/, "")}${table.basePath}`;
  const items = tryRequests(catalog, table).map(tryCard).join("\n");
  // Redoc's default theme names Roboto and Montserrat; system fonts keep the page free of font downloads.
  const options = {
    expandResponses: "200",
    jsonSampleExpandLevel: 3,
    hideHostname: false,
    theme: {
      colors: { primary: { main: COLOURS.primary }, text: { primary: COLOURS.text } },
      typography: { fontFamily: FONT, headings: { fontFamily: FONT }, code: { fontFamily: CODE_FONT } },
    },
  };
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Marketing Software Data API: reference</title>
  <link rel="icon" href="data:,">
  <style>${TRY_STYLE}
  </style>
</head>
<body>
  <header id="about">
    <h1>Marketing Software Data API</h1>
    <p>A public, read-only JSON API of marketing software: tools with their pricing plans (US dollars per month), ratings and API, MCP, Zapier and Make support; categories; and price rankings. No key, no sign-up.</p>
  </header>
  <section id="try" aria-labelledby="try-title">
    <h2 id="try-title">Try it</h2>
    <p>Each request below answers from this server, with this catalog's data. Public address: <code>${escapeHtml(apiBase)}</code></p>
    <p class="files-note">This host serves files only: each card opens the file the API answers its request with. A file host cannot check a request, so the error card shows the error's body without its status.</p>
    <ul>
${items}
    </ul>
  </section>
  <section id="search" aria-label="Search tools by name">
    <label for="search-q">Search tools by name</label>
    <input id="search-q" type="search" autocomplete="off" placeholder="the start of a word or two, e.g. ${escapeHtml(searchExample(catalog))}">
    <p id="search-status" aria-live="polite"></p>
    <ol id="search-results"></ol>
  </section>
  <script>${fileHostScript(table.basePath, `./${alignedLimitsFile(table.basePath)}`)}</script>
  <script>${searchScript(table.basePath)}</script>
  <div id="redoc"></div>
  <script src="./${DOCS_FILES.redoc.file}"></script>
  <script>Redoc.init(${JSON.stringify(specUrl)}, ${JSON.stringify(options)}, document.getElementById("redoc"));</script>
</body>
</html>
`;
}

/** index.html, the Redoc bundle (as published but for the CDN logo) and its license notice. */
export function renderDocsPage(catalog: Catalog, table: RouteTable, paths: RouteLayout): OutputFile[] {
  const dir = redocDir();
  return [
    { path: DOCS_FILES.page.file, body: docsPageHtml(catalog, table, paths) },
    packageFile(DOCS_FILES.redoc.file, `${dir}redoc.standalone.js`, withoutCdnLogo),
    packageFile(
      DOCS_FILES.redocLicense.file,
      `${dir}redoc.standalone.js.LICENSE.txt`,
      (bytes) => new Uint8Array(bytes),
    ),
  ];
}

/** A file made from one file of a package, read only when written: its key is the source's hash (remembered). */
const packageFile = (path: string, source: string, make: (bytes: Buffer) => Uint8Array): OutputFile =>
  lazyFile(path, `package ${hashOfFile(source)}`, () => make(readFileSync(source)));
