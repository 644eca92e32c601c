// The prose of the OpenAPI description: summaries, descriptions and tags, worded after the contract and the decisions.
// Public text: rules are said in words here, never by their ids in the decisions (a reader of the API has no use for "Q8").

export const TAGS = [
  { name: "Software", description: "Published tools: the paginated list and each tool's detail." },
  { name: "Categories", description: "Categories with their counts and top tool, and each category's price ranking." },
  { name: "Search", description: "Tools by the start of a word of their name." },
  {
    name: "Bulk and sync",
    description:
      "The whole catalog in one body, and a hash tree over every body, so a copy can fetch only what changed.",
  },
  { name: "Description", description: "This OpenAPI description itself." },
];

export const OPERATIONS = {
  listSoftware: {
    tags: ["Software"],
    summary: "List tools",
    description:
      "Published tools, optionally filtered by category, in name order (compared lower-cased, ties broken by slug; the category filter keeps that order). " +
      "Paginated with `limit` and `offset`. Checks run in this order and the first failure answers: `limit`, the form of `offset`, `category`, then whether `offset` is within the list. " +
      "Unknown query parameters are ignored and names are case-sensitive (`Limit` is not `limit`).",
  },
  getSoftware: {
    tags: ["Software"],
    summary: "Get one tool",
    description:
      "Pricing plans, rating, pros and cons, and the API/MCP/Zapier/Make capability flags of one tool, with the date its pricing was last verified against the vendor. " +
      "Prices are US dollars per month (0 = free, null = quote on request); `lowestPaidPrice` is the smallest price above 0, or null when there is none.",
  },
  listCategories: {
    tags: ["Categories"],
    summary: "List categories",
    description:
      "Every category with at least two tools, in name order, with its tool count, MCP-ready count and top tool " +
      "(the editorial pick, else the highest-rated tool).",
  },
  getBestInCategory: {
    tags: ["Categories"],
    summary: "Rank a category's tools by price",
    description:
      "Every tool of a category, cheapest paid plan first; tools without a paid price come last; ties follow name order. " +
      "This is a price ranking, not the site's editorial best-of order: check `meta.ranking` (`price-ascending`).",
  },
  searchSoftware: {
    tags: ["Search"],
    summary: "Search tools by name",
    description:
      "Tools whose name has a word starting with `q`. A name's words are the name with accents removed, lower-cased, and split at every " +
      "character that is not a letter a-z or a digit 0-9: `Café Studio-Pro` has the words `cafe`, `studio` and `pro`. The first 20 matches " +
      "in name order; `meta.total` counts them all. A `q` that matches nothing answers 200 with no data. Other query parameters are ignored.",
  },
  exportCatalog: {
    tags: ["Bulk and sync"],
    summary: "Get the whole catalog",
    description:
      "Every tool's detail with its category slugs, in name order, and every category in name order (also those with fewer than two " +
      "tools, which `GET /categories` leaves out), in one body.",
  },
  getSyncRoot: {
    tags: ["Bulk and sync"],
    summary: "Get the root of the hash tree",
    description:
      "Names the shards of the hash tree with the SHA-256 and size of each. Together the shards list every body this API serves by URL " +
      "(list pages, tools, categories, rankings, search answers, the export, this description) with its SHA-256 and size, so a copy " +
      "fetches this root (with `If-None-Match`), the shards whose hash changed, and the bodies whose hash changed. It holds no dates: " +
      "the same catalog gives the same tree.",
  },
  getSyncShard: {
    tags: ["Bulk and sync"],
    summary: "Get one shard of the hash tree",
    description:
      "Each request target of the shard (path and query, as a client sends it) with the SHA-256 and size of its body. Shard names come " +
      "from `GET /sync/index.json`.",
  },
  getOpenApi: {
    tags: ["Description"],
    summary: "Get this OpenAPI description",
    description: "The OpenAPI 3.1 description of the API, `info.version` 1.0.0.",
  },
} as const;

export const API_DESCRIPTION = (basePath: string) =>
  [
    "Read-only HTTP/JSON API over the published data of the marketing software catalog: pricing verified against each vendor, " +
      "ratings, capability flags (MCP server, public API, Zapier, Make) and category rankings. Public: no credential of any kind.",
    "",
    `**Paths.** Every endpoint lives under \`${basePath}\`. A trailing slash is ignored; path segments are percent-decoded ` +
      "and slugs match exactly, without case folding. `HEAD` answers as `GET` without a body; `OPTIONS` answers 204 with the " +
      "CORS preflight headers. Any other method answers 405 `method_not_allowed` with `Allow: GET, HEAD, OPTIONS`; any path that " +
      "is no endpoint answers 404 `not_found` — see the `MethodNotAllowed` and `NotFound` responses under components.",
    "",
    "**Responses.** Every response is JSON (`application/json; charset=utf-8`) with `Access-Control-Allow-Origin: *` and " +
      "`X-Content-Type-Options: nosniff`. Successful responses carry `Cache-Control` and an `ETag`; a matching " +
      "`If-None-Match` answers 304. Bodies hold exactly the documented fields, in the documented order.",
    "",
    "**Fields.** Every field is always sent: the schemas mark each one required, and a field without a value is sent as `null`, " +
      "so clients can rely on every key being there.",
    "",
    '**Errors.** Error bodies are `{ "error": { "code", "message", "hint"? } }`. Codes: `software_not_found`, ' +
      "`category_not_found`, `invalid_limit`, `invalid_offset`, `offset_out_of_range`, `invalid_query`, `not_found`, `method_not_allowed`.",
  ].join("\n");
