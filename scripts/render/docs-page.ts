// The docs page at the site root (outside the API base path): Redoc rendering the OpenAPI description, served from
// our own files only (no CDN, no web fonts), and a short list of real requests to try against this catalog.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Catalog } from "../model/derive.ts";
import type { OutputFile } from "./output.ts";
import { DOCS_ASSETS, layout, type RouteTable } from "./route-table.ts";

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
  const text = bundle.toString("utf8");
  const quoted = JSON.stringify(REDOC_CDN_LOGO);
  const at = text.indexOf(quoted);
  if (at < 0 || text.indexOf(quoted, at + 1) >= 0) throw new Error(`redoc.standalone.js: expected ${quoted} exactly once (Redoc upgraded? re-check the docs page)`);
  return new Uint8Array(Buffer.from(text.slice(0, at) + JSON.stringify(BLANK_IMAGE) + text.slice(at + quoted.length), "utf8"));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface TryRequest {
  /** what a reader sees: method and path with query */
  label: string;
  /** path and query below the site root, e.g. /v1/software?limit=5 */
  target: string;
  /** the status this catalog answers */
  status: number;
}

/** A few requests that answer real data of this catalog (and one error), for the page and for tests. */
export function tryRequests(catalog: Catalog, table: RouteTable): TryRequest[] {
  const base = table.basePath;
  const out: TryRequest[] = [{ label: `GET ${base}/software?limit=5`, target: `${base}/software?limit=5`, status: 200 }];
  const tool = catalog.tools[0];
  if (tool) out.push({ label: `GET ${base}/software/${tool.slug}`, target: `${base}/software/${tool.slug}`, status: 200 });
  out.push({ label: `GET ${base}/categories`, target: `${base}/categories`, status: 200 });
  const category = catalog.categories.find((c) => c.listed) ?? catalog.categories.find((c) => c.tools.length > 0);
  if (category) {
    out.push({ label: `GET ${base}/software?category=${category.slug}`, target: `${base}/software?category=${category.slug}`, status: 200 });
    out.push({ label: `GET ${base}/best/${category.slug}`, target: `${base}/best/${category.slug}`, status: 200 });
  }
  out.push({ label: `GET ${base}/software?limit=0 (error: invalid_limit)`, target: `${base}/software?limit=0`, status: 400 });
  out.push({ label: `GET ${base}/openapi.json`, target: `${base}/openapi.json`, status: 200 });
  return out;
}

export function docsPageHtml(catalog: Catalog, table: RouteTable): string {
  const specUrl = `./${layout(table.basePath).openapi}`;
  const apiBase = `${catalog.site.apiBaseUrl.replace(/\/+$/, "")}${table.basePath}`;
  const items = tryRequests(catalog, table)
    .map((r) => `      <li><a href=".${escapeHtml(r.target)}"><code>${escapeHtml(r.label)}</code></a></li>`)
    .join("\n");
  // Redoc's default theme names Roboto and Montserrat; system fonts keep the page free of font downloads.
  const options = {
    expandResponses: "200",
    jsonSampleExpandLevel: 3,
    hideHostname: false,
    theme: {
      typography: {
        fontFamily: "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif",
        headings: { fontFamily: "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" },
        code: { fontFamily: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace" },
      },
    },
  };
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Marketing Software Data API: reference</title>
  <link rel="icon" href="data:,">
  <style>
    body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
    #try { padding: 12px 40px; border-bottom: 1px solid #ddd; background: #fafafa; font-size: 14px; }
    #try h2 { font-size: 16px; margin: 4px 0; }
    #try ul { margin: 4px 0; padding-left: 20px; columns: 2; }
    #try p { margin: 4px 0; }
  </style>
</head>
<body>
  <section id="try">
    <h2>Try it</h2>
    <p>Public base address: <code>${escapeHtml(apiBase)}</code>. These requests answer from this server:</p>
    <ul>
${items}
    </ul>
  </section>
  <div id="redoc"></div>
  <script src="./${DOCS_FILES.redoc.file}"></script>
  <script>Redoc.init(${JSON.stringify(specUrl)}, ${JSON.stringify(options)}, document.getElementById("redoc"));</script>
</body>
</html>
`;
}

/** index.html, the Redoc bundle (as published but for the CDN logo) and its license notice. */
export function renderDocsPage(catalog: Catalog, table: RouteTable): OutputFile[] {
  const dir = redocDir();
  return [
    { path: DOCS_FILES.page.file, body: docsPageHtml(catalog, table) },
    { path: DOCS_FILES.redoc.file, body: withoutCdnLogo(readFileSync(dir + "redoc.standalone.js")) },
    { path: DOCS_FILES.redocLicense.file, body: new Uint8Array(readFileSync(dir + "redoc.standalone.js.LICENSE.txt")) },
  ];
}
