// Netlify offline: the generated _redirects is parsed by @netlify/redirect-parser (what Netlify's build uses) and
// matched by netlify-redirector (the matcher `netlify dev` used), then each request lands on a dist/ file the way
// Netlify serves: first match only, a missing rewrite target answers /404.html, an unforced rule yields to an
// existing file. Where it lands is compared with the route table's answer (the Node server's resolver).
// Everything Netlify cannot express is an explicit expected gap, so the README list stays true.

import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseAllRedirects } from "@netlify/redirect-parser";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import { createResolver } from "../../../../scripts/api/runtime/resolve-request.ts";
import {
  ALL_FILTER,
  categoryFilter,
  fill,
  layout,
  type RouteTable,
} from "../../../../scripts/api/runtime/route-table.ts";
import { NETLIFY_404_PAGE, NETLIFY_HEADERS, NETLIFY_REDIRECTS } from "../../../../scripts/hosts/static/netlify.ts";
import { builtSite } from "../../../helpers/build/built-site.ts";

interface Match {
  to: string;
  status: number;
  force: boolean;
}
interface Matcher {
  match(req: {
    scheme: string;
    host: string;
    path: string;
    query: string;
    getHeader(n: string): string;
    getCookie(n: string): string;
  }): Match | null;
}
// netlify-redirector ships no types; its rule JSON names the query conditions `params` (netlify-cli renames them too).
const redirector = createRequire(import.meta.url)("netlify-redirector") as {
  parseJSON(rules: string, options: object): Promise<Matcher>;
};

const site = builtSite({ prefix: "netlify-adapter-" });
let table: RouteTable;
let matcher: Matcher;

beforeAll(async () => {
  table = JSON.parse(readFileSync(join(site.dist, "routes.json"), "utf8")) as RouteTable;
  const { redirects, errors } = await parseAllRedirects({
    redirectsFiles: [join(site.dist, NETLIFY_REDIRECTS)],
    configRedirects: [],
    minimal: false,
  });
  expect(errors).toEqual([]);
  const rules = (redirects as { query: Record<string, string> }[]).map((r) => ({ ...r, params: r.query }));
  matcher = await redirector.parseJSON(JSON.stringify(rules), {});
});

const bytes = (file: string) => readFileSync(join(site.dist, file));

/** The dist/ file a URL path names, if it is one (the static lookup decodes the path). */
function fileAt(urlPath: string): string | undefined {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath).replace(/^\//, "");
  } catch {
    return undefined;
  }
  const abs = join(site.dist, rel);
  return rel !== "" && existsSync(abs) && statSync(abs).isFile() ? rel : undefined;
}

/** Where Netlify answers GET target from: status and dist/ file. */
function land(target: string): { status: number; file: string } {
  const url = new URL(target, "http://netlify.test");
  const m = matcher.match({
    scheme: "http",
    host: "netlify.test",
    path: url.pathname,
    query: url.search.slice(1),
    getHeader: () => "",
    getCookie: () => "",
  });
  const atPath = fileAt(url.pathname);
  if (!m) return atPath ? { status: 200, file: atPath } : { status: 404, file: NETLIFY_404_PAGE };
  if (!m.force && atPath) return { status: 200, file: atPath }; // shadowing: an unforced rule yields to a file
  const to = fileAt(new URL(m.to, url).pathname);
  if (to === undefined) return { status: 404, file: NETLIFY_404_PAGE }; // no later rule is tried
  return { status: m.status, file: to };
}

/** The table's answer to GET target. */
async function expected(target: string): Promise<{ status: number; file: string }> {
  const r = await createResolver(table).resolve("GET", target, (file) => existsSync(join(site.dist, file)) || null);
  if (r.kind === "file") return { status: r.status, file: r.file };
  if (r.kind === "error") return { status: table.errors[r.id].status, file: table.errors[r.id].file };
  throw new Error(`GET ${target} resolved to ${r.kind}`);
}

/** Same status and same bytes (the 404 page and errors/not_found.json are one body). */
const sameAnswer = (a: { status: number; file: string }, b: { status: number; file: string }) =>
  a.status === b.status && bytes(a.file).equals(bytes(b.file));

// Facts of the built fixture, read from dist/.
const categories = () =>
  fg.sync("*", {
    cwd: join(
      site.dist,
      fill(layout(table.basePath).page, { filter: categoryFilter("x"), limit: 1, offset: 0 }),
      "../../..",
    ),
    onlyDirectories: true,
  });
const total = (filter: string) =>
  (
    JSON.parse(bytes(fill(layout(table.basePath).page, { filter, limit: 1, offset: 0 })).toString()) as {
      meta: { total: number };
    }
  ).meta.total;
const tools = () =>
  fg
    .sync("*.json", { cwd: join(site.dist, fill(layout(table.basePath).tool, { slug: "x" }), "..") })
    .map((f) => f.slice(0, -5));
const withTools = () => categories().filter((c) => total(categoryFilter(c)) > 0);

describe("netlify _redirects: what Netlify answers as the table does", () => {
  const cases = (): string[] => {
    const b = table.basePath;
    const cat = withTools()[0]!;
    const slug = tools()[0]!;
    return [
      `${b}/software`,
      `${b}/software/`,
      `${b}/software?limit=5`,
      `${b}/software?offset=1`,
      `${b}/software?limit=2&offset=1`,
      `${b}/software?offset=1&limit=2`,
      `${b}/software?limit=100`,
      `${b}/software?offset=${total(ALL_FILTER)}`, // Q4: offset = total → 200, empty page
      `${b}/software?category=${cat}`,
      `${b}/software?category=${cat}&limit=1`,
      `${b}/software?category=${cat}&offset=1`,
      `${b}/software?limit=1&offset=1&category=${cat}`,
      `${b}/software?limit=3&utm=x`, // Q7 unknown names ignored
      `${b}/software?LIMIT=5`, // Q7 names are case-sensitive
      `${b}/software/${slug}`,
      `${b}/software/${slug}/`,
      `${b}/software/%${slug.charCodeAt(0).toString(16)}${slug.slice(1)}`, // P3
      `${b}/categories`,
      `${b}/categories/`,
      `${b}/best/${cat}`,
      `${b}/openapi.json`,
      `${b}/nothing`,
      `${b}/software/a/b`,
      `${b.toUpperCase()}/software`, // P1 the base path is case-sensitive
      `${b}//software`,
      "/",
      "/routes.json",
      `/${NETLIFY_REDIRECTS}`,
      `/${NETLIFY_HEADERS}`,
      `/${table.errors.not_found.file}`,
      `/${fill(layout(table.basePath).page, { filter: ALL_FILTER, limit: 20, offset: 0 })}`, // P7 page file by its path
      `/${layout(table.basePath).categories}`,
      ...table.assets.map((a) => a.path), // the docs page and its files
      ...table.assets.filter((a) => `/${a.file}` !== a.path).map((a) => `/${a.file}`), // /index.html is no path of the API
    ];
  };

  it("every listed request lands on the file and status the table answers", async () => {
    for (const target of cases()) {
      const want = await expected(target);
      const got = land(target);
      expect(
        sameAnswer(got, want),
        `${target}: Netlify ${got.status} ${got.file}, table ${want.status} ${want.file}`,
      ).toBe(true);
    }
  });

  it("every request the table answers 200 is rewritten (200) onto a file that exists in dist/", async () => {
    for (const target of cases()) {
      if ((await expected(target)).status !== 200) continue;
      const url = new URL(target, "http://netlify.test");
      const m = matcher.match({
        scheme: "http",
        host: "netlify.test",
        path: url.pathname,
        query: url.search.slice(1),
        getHeader: () => "",
        getCookie: () => "",
      });
      // a 404 rule here is an unforced one the existing file shadows (the OpenAPI file at its own path)
      const file = m?.status === 200 ? fileAt(new URL(m.to, url).pathname) : fileAt(url.pathname);
      expect({ target, exists: file !== undefined }).toEqual({ target, exists: true });
    }
  });

  it("P7 no file of dist/ outside the API answers by its own path", async () => {
    const files = fg
      .sync("**/*", { cwd: site.dist, dot: true, onlyFiles: true })
      .filter((f) => !f.startsWith(`${table.basePath.slice(1)}/`) && !table.assets.some((a) => a.path === `/${f}`));
    expect(files).toEqual(expect.arrayContaining(["routes.json", NETLIFY_REDIRECTS, NETLIFY_404_PAGE]));
    const notFound = { status: 404, file: table.errors.not_found.file };
    for (const file of files) expect(sameAnswer(land(`/${file}`), notFound), file).toBe(true);
  });
});

// Measured: what Netlify answers instead of the rule. `answers` is Netlify's landing; the table differs from it.
describe("netlify _redirects: documented gaps", () => {
  const notFoundPage = { status: 404, file: NETLIFY_404_PAGE };
  const page = (filter: string, limit: number, offset: number) => ({
    status: 200,
    file: fill(layout(table.basePath).page, { filter, limit, offset }),
  });

  const gaps = (): { rule: string; target: string; answers: { status: number; file: string } }[] => {
    const b = table.basePath;
    const cat = withTools()[0]!;
    const empty = categories().find((c) => total(categoryFilter(c)) === 0);
    return [
      // Q2/Q3/Q8: a placeholder takes any value; a value with no page file is a missing target → 404 page, not 400.
      { rule: "Q2 limit=0 → 400 invalid_limit", target: `${b}/software?limit=0`, answers: notFoundPage },
      { rule: "Q2 limit=101 → 400 invalid_limit", target: `${b}/software?limit=101`, answers: notFoundPage },
      { rule: "Q2 limit=abc → 400 invalid_limit", target: `${b}/software?limit=abc`, answers: notFoundPage },
      { rule: "Q2 limit= (empty) → 400 invalid_limit", target: `${b}/software?limit=`, answers: notFoundPage },
      { rule: "Q2 limit=05 → 400 invalid_limit", target: `${b}/software?limit=05`, answers: notFoundPage },
      { rule: "Q2 limit (no =) → 400 invalid_limit", target: `${b}/software?limit`, answers: page(ALL_FILTER, 20, 0) },
      { rule: "Q3 offset=-1 → 400 invalid_offset", target: `${b}/software?offset=-1`, answers: notFoundPage },
      {
        rule: "Q8 limit=0&category=unknown → 400 invalid_limit",
        target: `${b}/software?limit=0&category=no-such`,
        answers: notFoundPage,
      },
      {
        rule: "Q4 offset > total → 400 offset_out_of_range",
        target: `${b}/software?offset=${total(ALL_FILTER) + 1}`,
        answers: notFoundPage,
      },
      {
        rule: "Q5 unknown category → 404 category_not_found",
        target: `${b}/software?category=no-such`,
        answers: notFoundPage,
      },
      // Q6: the matcher takes the last of repeated values.
      {
        rule: "Q6 limit=5&limit=6 → 400 invalid_limit",
        target: `${b}/software?limit=5&limit=6`,
        answers: page(ALL_FILTER, 6, 0),
      },
      {
        rule: "Q6 category twice → 400",
        target: `${b}/software?category=${cat}&category=${cat}`,
        answers: page(categoryFilter(cat), 20, 0),
      },
      // Q1: the matcher percent-decodes query values.
      {
        rule: "Q1 limit=%35 is not 5 → 400 invalid_limit",
        target: `${b}/software?limit=%35`,
        answers: page(ALL_FILTER, 5, 0),
      },
      // One 404 page: the route's own error body cannot be chosen for a missing file.
      { rule: "unknown tool → 404 software_not_found", target: `${b}/software/no-such-tool`, answers: notFoundPage },
      {
        rule: "P3 slugs match exactly → 404 software_not_found",
        target: `${b}/software/${tools()[0]!.toUpperCase()}`,
        answers: notFoundPage,
      },
      { rule: "O4 unknown category → 404 category_not_found", target: `${b}/best/no-such`, answers: notFoundPage },
      ...(empty
        ? [
            {
              rule: "O4 category with no tools → 404 category_not_found",
              target: `${b}/best/${empty}`,
              answers: notFoundPage,
            },
          ]
        : []),
    ];
  };

  it("each gap lands where measured, and the table answers otherwise", async () => {
    for (const { rule, target, answers } of gaps()) {
      const got = land(target);
      expect({ rule, ...got }).toEqual({ rule, ...answers });
      expect(sameAnswer(got, await expected(target)), `${rule}: no longer a gap, update the README`).toBe(false);
    }
  });

  it("the 404 page is the not_found body, so unmatched paths still answer JSON", () => {
    expect(bytes(NETLIFY_404_PAGE).equals(bytes(table.errors.not_found.file))).toBe(true);
  });
});

describe("netlify _headers", () => {
  /** Netlify-style path patterns: `*` matches the rest of the path, anything else is literal. */
  const headersFor = () => {
    const rules: { pattern: RegExp; headers: Record<string, string> }[] = [];
    for (const line of bytes(NETLIFY_HEADERS).toString().split("\n")) {
      if (line.trim() === "" || line.startsWith("#")) continue;
      if (!line.startsWith(" ")) {
        const source = line
          .trim()
          .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
          .replace(/\*/g, ".*");
        rules.push({ pattern: new RegExp(`^${source}$`), headers: {} });
      } else {
        const [name, ...value] = line.trim().split(": ");
        rules.at(-1)!.headers[name!.toLowerCase()] = value.join(": ");
      }
    }
    // every value a path collects, per header name: a name set twice would show two values
    return (path: string) => {
      const out: Record<string, string[]> = {};
      for (const r of rules)
        if (r.pattern.test(path)) for (const [k, v] of Object.entries(r.headers)) (out[k] ??= []).push(v);
      return out;
    };
  };
  const once = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), [v]]));

  it("H1 H2 H3 API request paths and 200 files get headers.all and Cache-Control, each once", () => {
    const of = headersFor();
    const b = table.basePath;
    const paths = [
      `${b}/software`,
      `${b}/software/${tools()[0]}`,
      `${b}/categories`,
      `${b}/best/x`,
      `${b}/openapi.json`,
    ];
    const files = fg
      .sync(`${b.slice(1)}/**/*.json`, { cwd: site.dist })
      .slice(0, 50)
      .map((f) => `/${f}`);
    for (const path of [...paths, ...files])
      expect({ path, ...of(path) }).toEqual({ path, ...once({ ...table.headers.all, ...table.headers.success }) });
  });

  it("H1 H2 error bodies and the 404 page get headers.all, no Cache-Control", () => {
    const of = headersFor();
    for (const file of [NETLIFY_404_PAGE, ...Object.values(table.errors).map((e) => e.file)]) {
      expect({ file, ...of(`/${file}`) }).toEqual({ file, ...once(table.headers.all) });
    }
  });

  it("the docs page and its files get their own Content-Type, CORS, nosniff and Cache-Control", () => {
    const of = headersFor();
    for (const asset of table.assets) {
      const want = { ...table.headers.all, ...table.headers.success };
      const type = Object.keys(want).find((k) => k.toLowerCase() === "content-type")!;
      expect({ path: asset.path, ...of(asset.path) }).toEqual({
        path: asset.path,
        ...once({ ...want, [type]: asset.contentType }),
      });
    }
  });

  it("gap H1/H3: if Netlify matches headers by request path, a 404 below the base path carries Cache-Control and one outside the API and errors/ carries Netlify's own Content-Type", () => {
    const of = headersFor();
    expect(Object.keys(of(`${table.basePath}/software/no-such-tool`))).toEqual(
      expect.arrayContaining(Object.keys(once(table.headers.success))),
    );
    expect(of("/routes.json")["content-type"]).toBeUndefined();
  });
});
