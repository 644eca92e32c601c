// /llms.txt (P9): the API told to a language model, in the llms.txt convention's shape (an H1 title, a blockquote
// summary, then sections of links). Made from the operations' description (api/operations.ts) and this catalog's
// own slugs, so every endpoint is there with an example that answers, and nothing can drift from the API. A file of
// the build (route table `assets`): every host serves it, file hosts included.
import { type Operation, operationList, type QueryParameter } from "../api/operations.ts";
import {
  ALL_FILTER,
  DEFAULT_LIMIT,
  DOCS_ASSETS,
  fill,
  MCP_PATH,
  type RouteLayout,
  type RouteTable,
} from "../api/runtime/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { firstNameWord } from "../model/search-words.ts";
import { lazyFile, type OutputFile, routeTableKey } from "./output.ts";

/** Example values of query parameters, where an operation has them (required ones always have one). */
const QUERY_EXAMPLES: Record<string, (facts: Facts) => string> = {
  limit: () => "5",
  q: (facts) => facts.word,
};

interface Facts {
  /** path parameter → an example value from this catalog (none: the operation is shown without a link) */
  path: Record<string, string | undefined>;
  word: string;
}

/** The target of an operation's example below the base path, or null when this catalog has no value for it. */
function exampleTarget(op: Operation, facts: Facts): string | null {
  let path = op.path;
  for (const name of Object.keys(op.pathParams)) {
    const value = facts.path[name];
    if (value === undefined) return null;
    path = path.replace(`{${name}}`, value);
  }
  const query = op.query
    .filter((p) => QUERY_EXAMPLES[p.name] !== undefined)
    .map((p) => `${p.name}=${QUERY_EXAMPLES[p.name]!(facts)}`);
  return query.length === 0 ? path : `${path}?${query.join("&")}`;
}

/** A query parameter in a few words: its limits and default, from its description's data. */
function parameterWords(p: QueryParameter): string {
  const what =
    p.type.type === "integer"
      ? p.type.maximum === undefined
        ? `${p.type.minimum} or more`
        : `${p.type.minimum} to ${p.type.maximum}`
      : `matching \`${p.pattern}\``;
  const given = p.absentError !== undefined ? "required" : p.default === null ? "optional" : `default ${p.default}`;
  return `\`${p.name}\` (${what}; ${given})`;
}

/** The first sentence of an operation's description. */
const firstSentence = (text: string) => {
  const end = text.search(/\.\s/);
  return end === -1 ? text : text.slice(0, end + 1);
};

function endpointLine(op: Operation, base: string, api: string, facts: Facts): string {
  const target = exampleTarget(op, facts);
  const query = op.query.length > 0 ? ` Query: ${op.query.map(parameterWords).join(", ")}.` : "";
  const what = `\`GET ${base}${op.path}\`: ${firstSentence(op.description)}${query}`;
  // An operation whose values come from another answer (a shard's name) is shown without a link.
  if (target === null || op.listed === false) {
    const values = Object.entries(op.pathParams).map(([name, p]) => ` \`${name}\`: ${p.description}`);
    return `- ${op.summary}: ${what}${values.join("")}`;
  }
  return `- [${op.summary}](${api}${base}${target}): ${what}`;
}

/** The text of llms.txt; `paths`: the build's route layout (the first page's file, the description's path). */
export function llmsText(catalog: Catalog, table: RouteTable, paths: RouteLayout): string {
  const origin = catalog.site.apiBaseUrl.replace(/\/+$/, "");
  const base = table.basePath;
  const category = catalog.categories.find((c) => c.listed) ?? catalog.categories.find((c) => c.tools.length > 0);
  const facts: Facts = {
    path: { slug: catalog.tools[0]?.slug, categorySlug: category?.slug },
    word: firstNameWord(catalog.tools)?.slice(0, 4) ?? "mail",
  };
  const endpoints = operationList().map(([, op]) => endpointLine(op, base, origin, facts));
  const firstPage = `/${fill(paths.page, { filter: ALL_FILTER, limit: DEFAULT_LIMIT, offset: 0 })}`;
  return `# Marketing Software Data API

> A public, read-only JSON API of marketing software: tools with their pricing plans (US dollars per month), ratings and API, MCP, Zapier and Make support; categories; and price rankings. No key, no sign-up. Base URL: ${origin}${base}

Every answer is JSON, errors too: \`{"error":{"code","message","hint"}}\` with the HTTP status, the hint saying how to fix the request. Only GET, HEAD and OPTIONS are served, from any origin (CORS). Lists are in name order and paged with \`limit\` and \`offset\`; \`meta.total\` counts every match. Prices are US dollars per month: 0 is free, null a quote on request.

## Endpoints

${endpoints.join("\n")}

## Description

- [OpenAPI 3.1 description](${origin}/${paths.openapi}): every endpoint, parameter, limit, error code and response schema
- [Reference page](${origin}${DOCS_ASSETS.page.path}): the description rendered, with requests that answer from this catalog

## MCP

- [MCP endpoint](${origin}${MCP_PATH}): the catalog as a Model Context Protocol server for agents that connect by URL: Streamable HTTP, stateless (no session), each answer one JSON body; POST only. Its tools list, get and search software, list categories, rank a category by price, and find_software answers which tools fit in one call (category, MCP server, API, Zapier, Make, free plan, a monthly budget, a minimum rating; sorted by name, price or rating).

## Hosts

- The Node server and the Cloudflare Worker answer every request above, query strings included, and ${MCP_PATH}.
- nginx answers every request above, query strings included; it has no ${MCP_PATH}.
- Netlify answers the routes, their defaults and filters (an invalid query string is a 404 there, not a 400); no ${MCP_PATH}.
- \`npx serve\` and file hosts (GitHub Pages, S3, Cloudflare Pages) ignore query strings and have no ${MCP_PATH}: there each answer is a file, e.g. \`${firstPage}\` for the first page of tools.
`;
}

/** llms.txt, keyed by what it is made of: the route table, the public address and the example values. */
export function renderLlmsTxt(catalog: Catalog, table: RouteTable, paths: RouteLayout): OutputFile {
  const key = [
    "llms",
    routeTableKey(table),
    catalog.site.apiBaseUrl,
    catalog.tools[0]?.slug,
    catalog.categories.map((c) => `${c.slug}:${c.listed}:${c.tools.length > 0}`).join(","),
    firstNameWord(catalog.tools),
  ].join(" ");
  return lazyFile(DOCS_ASSETS.llms.file, key, () => llmsText(catalog, table, paths));
}
