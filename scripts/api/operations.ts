// ONE description per operation of the API: its path (with the contract's parameter names), its parameters and their
// patterns, defaults and limits, the errors it can answer and why, and the words of every error body. The route table
// (contract/build-route-table.ts), openapi.json (render/openapi.ts) and the error bodies (contract/error-bodies.ts,
// render/errors.ts) are generated from here: a parameter or an error of an operation is added here, once.
// Public text: rules are said in words here, never by their ids in the decisions (a reader of the API has no use for "Q8").
// Data only, no imports but a pattern and a length of the layers below: the Worker bundles the error statuses, and
// keeps none of the rest.

import { MAX_SEARCH_PREFIX } from "../model/search-words.ts";
import { SLUG_PATTERN } from "../schemas/slug-pattern.ts";

/** `limit` of a list page: at most this many tools (Q2). */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;
export const DEFAULT_OFFSET = 0;
/** Matches a search answer lists (S1); meta.total counts them all. */
export const SEARCH_LIMIT = 20;
/** The longest valid search prefix (S2): the catalog's search index stops there (model/search-words.ts). */
export { MAX_SEARCH_PREFIX };
/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 1;

/** 1 to MAX_LIMIT in plain decimal, as one alternation: no sign, no leading zero (Q2). */
export const LIMIT_PATTERN = "^(100|[1-9][0-9]?)$";
export const OFFSET_PATTERN = "^(0|[1-9][0-9]*)$";
export const SEARCH_PATTERN = `^[a-z0-9]{1,${MAX_SEARCH_PREFIX}}$`;
/** A hash tree shard's file name (E2); `index.json`, the root, is answered by an operation of its own before it. */
export const HASH_TREE_SHARD_PATTERN = "^[a-z0-9][a-z0-9-]*\\.json$";
/** A piece's file name: its id, the SHA-256 of its body in lower-case hex, followed by `.json` (E2). */
export const PIECE_PATTERN = "^[0-9a-f]{64}\\.json$";

/** The version of the API its description carries (P8). */
export const API_VERSION = "1.0.0";

/** The errors the route table answers with one fixed body (errors/{id}.json), by id, with their status. Plain data:
 *  every runtime's answer policy reads it, and the Worker bundles it without the words below. */
export const ROUTE_ERROR_STATUS = {
  not_found: 404,
  method_not_allowed: 405,
  invalid_limit: 400,
  invalid_offset: 400,
  software_not_found: 404,
  category_not_found: 404,
  category_repeated: 400,
  invalid_query: 400,
} as const;
/** The error the route table answers with a body per list: its hint names the list's total. */
export const LIST_ERROR_STATUS = { offset_out_of_range: 400 } as const;
/** Errors a host answers on its own: a request whose framing cannot be read, a body its storage cannot give now. */
export const HOST_ERROR_STATUS = { bad_request: 400, service_unavailable: 503 } as const;

export type ErrorId = keyof typeof ROUTE_ERROR_STATUS;
export type ListErrorId = keyof typeof LIST_ERROR_STATUS;
export type HostErrorId = keyof typeof HOST_ERROR_STATUS;
type AnyErrorId = ErrorId | ListErrorId | HostErrorId;

export function errorStatus(id: AnyErrorId): 400 | 404 | 405 | 503 {
  if (id in ROUTE_ERROR_STATUS) return ROUTE_ERROR_STATUS[id as ErrorId];
  if (id in LIST_ERROR_STATUS) return LIST_ERROR_STATUS[id as ListErrorId];
  return HOST_ERROR_STATUS[id as HostErrorId];
}

interface ErrorWords {
  /** `error.code` of the body; two errors may share one (category_repeated answers category_not_found) */
  code: string;
  message: string;
  /** the body's hint, given the base path and the endpoints it serves (and, for a list's error, its category and
   *  total) */
  hint?: (at: { base: string; endpoints: string; category?: string | null; total?: number }) => string;
  /** answered for any path, by no one operation (an unknown path, an unserved method): openapi.json describes it
   *  under components and lists its code last */
  anyPath?: true;
  /** a request that gets this error, shown as the example's summary in openapi.json: `{base}`, `{tool}` (a tool's
   *  slug) and `{beyond}` (an offset past every list) are filled from the catalog */
  example?: string;
}

/**
 * The words of every error, in the contract's order (H4), then search's, then those a host gives on its own: the order
 * of the Error schema's codes and of the codes openapi.json lists. Made by a pure call so that a bundle using none of
 * it (the Worker's) drops it: esbuild keeps a top-level template literal even when nothing reads it.
 */
export const ERRORS = /* @__PURE__ */ errorWords();
function errorWords() {
  return {
    software_not_found: {
      code: "software_not_found",
      message: "No tool has this slug.",
      hint: ({ base }) => `Tool slugs come from GET ${base}/software.`,
      example: "GET {base}/software/no-such-tool",
    },
    category_not_found: {
      code: "category_not_found",
      message: "No category has this slug.",
      hint: ({ base }) => `Category slugs come from GET ${base}/categories.`,
      example: "GET {base}/best/no-such-category",
    },
    category_repeated: {
      code: "category_not_found",
      message: "category was given more than once.",
      hint: ({ base }) => `Send one category; its slug comes from GET ${base}/categories.`,
      example: "GET {base}/software?category=a&category=b",
    },
    invalid_limit: {
      code: "invalid_limit",
      message: `limit must be a whole number from 1 to ${MAX_LIMIT}.`,
      hint: () =>
        `Send limit once, as plain digits without sign or leading zero, e.g. limit=${DEFAULT_LIMIT} (the default).`,
      example: "GET {base}/software?limit=0",
    },
    invalid_offset: {
      code: "invalid_offset",
      message: "offset must be a whole number of 0 or more.",
      hint: () =>
        `Send offset once, as plain digits without sign or leading zero, e.g. offset=${DEFAULT_OFFSET} (the default).`,
      example: "GET {base}/software?offset=-1",
    },
    offset_out_of_range: {
      code: "offset_out_of_range",
      message: "offset is beyond the end of the list.",
      hint: ({ category, total = 0 }) =>
        `${category == null ? "The list" : `The list of category "${category}"`} has ${total} tool${total === 1 ? "" : "s"}: use an offset from 0 to ${total}.`,
      example: "GET {base}/software?offset={beyond}",
    },
    not_found: {
      code: "not_found",
      anyPath: true,
      message: "No endpoint answers at this path.",
      hint: ({ endpoints }) => `Endpoints: GET ${endpoints}.`,
      example: "GET {base}/no-such-endpoint",
    },
    method_not_allowed: {
      code: "method_not_allowed",
      anyPath: true,
      message: "This API is read-only: only GET, HEAD and OPTIONS are served.",
      example: "DELETE {base}/software/{tool}",
    },
    invalid_query: {
      code: "invalid_query",
      message: `q must be given once, as 1 to ${MAX_SEARCH_PREFIX} lower-case letters a-z or digits 0-9.`,
      hint: () => "Search by the start of a word of a tool's name, lower-case without accents, e.g. q=mail.",
      example: "GET {base}/search?q=Mail",
    },
    bad_request: {
      code: "bad_request",
      message:
        "The request is not valid HTTP/1.1: its Transfer-Encoding, Content-Length or chunked body cannot be read.",
      hint: () => "Send GET, HEAD or OPTIONS requests without a body.",
    },
    service_unavailable: {
      code: "service_unavailable",
      message: "The service cannot answer this request right now.",
      hint: () => `Retry after ${RETRY_AFTER_SECONDS} second.`,
    },
  } as const satisfies Record<AnyErrorId, ErrorWords>;
}

/** Every `error.code` a body can carry, once each, in ERRORS' order: the Error schema's enum. */
export const ERROR_CODES = /* @__PURE__ */ codesOf(ERRORS);
type ErrorCode = (typeof ERRORS)[AnyErrorId]["code"];
function codesOf(errors: typeof ERRORS): ErrorCode[] {
  return [...new Set(Object.values(errors).map((e) => e.code))];
}

export interface PathParameter {
  /** the raw segment, percent-decoded (P3), must match this; else the operation's fallback answers */
  pattern: string;
  description: string;
}

export interface QueryParameter {
  /** case-sensitive (Q7) */
  name: string;
  /** the raw value, never percent-decoded (Q1), must match this */
  pattern: string;
  /** its value when absent; null: no value (optional, or required: absentError) */
  default: string | null;
  /** a required parameter: answered when it is not given */
  absentError?: ErrorId;
  /** answered when the value fails the pattern */
  error: ErrorId;
  /** answered when the parameter is given more than once (Q6) */
  repeatedError: ErrorId;
  /** what the value means to a client, in openapi.json: an integer in a range, or a string of the pattern */
  type: { type: "integer"; minimum: number; maximum?: number } | { type: "string" };
  /** how the endpoint list of the not_found hint shows a required parameter's value */
  placeholder?: string;
  description: string;
}

/** The errors an operation answers with one status, and why (openapi.json states each). */
export interface ErrorResponse {
  status: 400 | 404;
  why: string;
  /** ERRORS ids, whose codes this response carries; each one's example is shown */
  errors: (ErrorId | ListErrorId)[];
}

export interface Operation {
  /** below the base path; `{name}` is one whole segment, named as the contract names it */
  path: string;
  pathParams: Record<string, PathParameter>;
  /** checked in this order; the first failure answers (Q8) */
  query: QueryParameter[];
  /** answered when a path parameter fails its pattern or no file answers */
  fallback: ErrorId;
  /** false: the not_found hint's list of endpoints leaves it out (a hash tree shard's name comes from the root) */
  listed?: false;
  tags: string[];
  summary: string;
  description: string;
  /** the 200 answer: why, and its response schema's id (null: described inline, as the description itself is) */
  success: { description: string; schema: string | null };
  errorResponses: ErrorResponse[];
}

/** Every operation, by operationId, in the order openapi.json and the route table list them (a pure call, as ERRORS). */
export const OPERATIONS = /* @__PURE__ */ describeOperations();
function describeOperations() {
  const limit: QueryParameter = {
    name: "limit",
    pattern: LIMIT_PATTERN,
    default: `${DEFAULT_LIMIT}`,
    error: "invalid_limit",
    repeatedError: "invalid_limit",
    type: { type: "integer", minimum: 1, maximum: MAX_LIMIT },
    description:
      `Page size, 1 to ${MAX_LIMIT}. Sent as plain decimal digits: the raw value must match \`${LIMIT_PATTERN}\` ` +
      "(no sign, no leading zero, no spaces, no percent-encoding). Any other value, the empty string included, or the parameter given twice: 400 `invalid_limit`.",
  };
  const offset: QueryParameter = {
    name: "offset",
    pattern: OFFSET_PATTERN,
    default: `${DEFAULT_OFFSET}`,
    error: "invalid_offset",
    repeatedError: "invalid_offset",
    type: { type: "integer", minimum: 0 },
    description:
      `Number of tools to skip. The raw value must match \`${OFFSET_PATTERN}\`; any other value, or the parameter given twice: 400 \`invalid_offset\`. ` +
      "`offset` equal to `meta.total` answers an empty page; greater answers 400 `offset_out_of_range`, whose hint names the total.",
  };
  const category: QueryParameter = {
    name: "category",
    pattern: SLUG_PATTERN,
    default: null,
    error: "category_not_found",
    repeatedError: "category_repeated",
    type: { type: "string" },
    description:
      "Only tools of this category (valid values: the slugs from `GET /categories`). Unknown category: 404 `category_not_found`; " +
      "a category with no tools answers an empty page. Given twice: 400 `category_not_found`.",
  };
  const q: QueryParameter = {
    name: "q",
    pattern: SEARCH_PATTERN,
    default: null,
    absentError: "invalid_query",
    error: "invalid_query",
    repeatedError: "invalid_query",
    type: { type: "string" },
    placeholder: "prefix",
    description:
      `The start of a word of a tool's name: 1 to ${MAX_SEARCH_PREFIX} lower-case letters a-z or digits 0-9, sent as they are ` +
      `(the raw value must match \`${SEARCH_PATTERN}\`; no percent-encoding). Absent, empty, given twice or anything else: 400 \`invalid_query\`.`,
  };

  return {
    listSoftware: {
      path: "/software",
      pathParams: {},
      query: [limit, offset, category],
      fallback: "category_not_found",
      tags: ["Software"],
      summary: "List tools",
      description:
        "Published tools, optionally filtered by category, in name order (compared lower-cased, ties broken by slug; the category filter keeps that order). " +
        "Paginated with `limit` and `offset`. Checks run in this order and the first failure answers: `limit`, the form of `offset`, `category`, then whether `offset` is within the list. " +
        "Unknown query parameters are ignored and names are case-sensitive (`Limit` is not `limit`).",
      success: {
        description: "A page of tools in name order, with the `limit`, `offset` and `category` in effect under `meta`.",
        schema: "SoftwareListResponse",
      },
      errorResponses: [
        {
          status: 400,
          why: "`limit` or `offset` is invalid or given more than once, `offset` is beyond `meta.total`, or `category` was given more than once.",
          errors: ["invalid_limit", "invalid_offset", "offset_out_of_range", "category_repeated"],
        },
        {
          status: 404,
          why: "`category` is not the slug of a category of the catalog.",
          errors: ["category_not_found"],
        },
      ],
    },
    getSoftware: {
      path: "/software/{slug}",
      pathParams: {
        slug: {
          pattern: SLUG_PATTERN,
          description:
            "The tool slug, matched exactly: percent-decoded first, never case-folded (`Acme-Mail` is not `acme-mail`).",
        },
      },
      query: [],
      fallback: "software_not_found",
      tags: ["Software"],
      summary: "Get one tool",
      description:
        "Pricing plans, rating, pros and cons, and the API/MCP/Zapier/Make capability flags of one tool, with the date its pricing was last verified against the vendor. " +
        "Prices are US dollars per month (0 = free, null = quote on request); `lowestPaidPrice` is the smallest price above 0, or null when there is none.",
      success: { description: "The tool's full detail.", schema: "SoftwareDetailResponse" },
      errorResponses: [
        {
          status: 404,
          why: "No tool has this slug (`software_not_found`), or the slug segment is not valid percent-encoding (`not_found`).",
          errors: ["software_not_found", "not_found"],
        },
      ],
    },
    listCategories: {
      path: "/categories",
      pathParams: {},
      query: [],
      fallback: "not_found",
      tags: ["Categories"],
      summary: "List categories",
      description:
        "Every category with at least two tools, in name order, with its tool count, MCP-ready count and top tool " +
        "(the editorial pick, else the highest-rated tool).",
      success: {
        description: "Every category with at least two tools, in name order.",
        schema: "CategoryListResponse",
      },
      errorResponses: [],
    },
    getBestInCategory: {
      path: "/best/{categorySlug}",
      pathParams: {
        categorySlug: {
          pattern: SLUG_PATTERN,
          description:
            "A category slug (valid values come from `GET /categories`; a category with a single tool, left out of that list, answers here too).",
        },
      },
      query: [],
      fallback: "category_not_found",
      tags: ["Categories"],
      summary: "Rank a category's tools by price",
      description:
        "Every tool of a category, cheapest paid plan first; tools without a paid price come last; ties follow name order. " +
        "This is a price ranking, not the site's editorial best-of order: check `meta.ranking` (`price-ascending`).",
      success: {
        description: "The category's tools, cheapest paid plan first, tools without a paid price last.",
        schema: "BestInCategoryResponse",
      },
      errorResponses: [
        {
          status: 404,
          why: "Unknown category, or a category with no tools; `not_found` when the segment is not valid percent-encoding.",
          errors: ["category_not_found", "not_found"],
        },
      ],
    },
    searchSoftware: {
      path: "/search",
      pathParams: {},
      query: [q],
      fallback: "not_found",
      tags: ["Search"],
      summary: "Search tools by name",
      description:
        "Tools whose name has a word starting with `q`. A name's words are the name with accents removed, lower-cased, and split at every " +
        `character that is not a letter a-z or a digit 0-9: \`Café Studio-Pro\` has the words \`cafe\`, \`studio\` and \`pro\`. The first ${SEARCH_LIMIT} matches ` +
        "in name order; `meta.total` counts them all. A `q` that matches nothing answers 200 with no data. Other query parameters are ignored.",
      success: {
        description: `The first ${SEARCH_LIMIT} matching tools in name order, and how many match.`,
        schema: "SearchResponse",
      },
      errorResponses: [
        {
          status: 400,
          why: `\`q\` is absent, empty, given more than once, longer than ${MAX_SEARCH_PREFIX} characters, or has another character.`,
          errors: ["invalid_query"],
        },
      ],
    },
    exportCatalog: {
      path: "/export/catalog.json",
      pathParams: {},
      query: [],
      fallback: "not_found",
      tags: ["Bulk and sync"],
      summary: "Get the whole catalog",
      description:
        "Every tool's detail with its category slugs, in name order, and every category in name order (also those with fewer than two " +
        "tools, which `GET /categories` leaves out), in one body.",
      success: { description: "The whole catalog.", schema: "ExportResponse" },
      errorResponses: [],
    },
    getSyncRoot: {
      path: "/sync/index.json",
      pathParams: {},
      query: [],
      fallback: "not_found",
      tags: ["Bulk and sync"],
      summary: "Get the root of the hash tree",
      description:
        "Names the shards of the hash tree with the SHA-256 and size of each. Together the shards list every body this API serves by URL " +
        "but the list pages (tools, categories, rankings, search answers, the export, this description) with its SHA-256 and size, and " +
        "each list of `GET /software` (unfiltered and per category) with the hash and size of its items joined by commas and its pieces: " +
        "every page of a list is a window of its items. The export's entry names its parts: texts and pieces. A copy fetches this root " +
        "(with `If-None-Match`), the shards whose hash changed, the bodies whose hash changed, and the pieces it does not hold. It holds no " +
        "dates: the same catalog gives the same tree.",
      success: { description: "The shards of the hash tree.", schema: "SyncRoot" },
      errorResponses: [],
    },
    getSyncShard: {
      path: "/sync/{shard}",
      pathParams: {
        shard: {
          pattern: HASH_TREE_SHARD_PATTERN,
          description: "A shard's name from `GET /sync/index.json`, followed by `.json`.",
        },
      },
      query: [],
      fallback: "not_found",
      listed: false,
      tags: ["Bulk and sync"],
      summary: "Get one shard of the hash tree",
      description:
        "Each request target of the shard (path and query, as a client sends it) with the SHA-256 and size of its body; a list's shard " +
        "names the list's target (`/software`, `/software?category={slug}`) with its category, its total and its pieces. Shard names " +
        "come from `GET /sync/index.json`.",
      success: {
        description: "The shard's request targets with the hash and size of each body.",
        schema: "SyncShard",
      },
      errorResponses: [{ status: 404, why: "No shard has this name.", errors: ["not_found"] }],
    },
    getSyncPiece: {
      path: "/sync/pieces/{piece}",
      pathParams: {
        piece: {
          pattern: PIECE_PATTERN,
          description:
            "A piece's id from a shard of the hash tree (the SHA-256 of its body, lower-case hex), followed by `.json`.",
        },
      },
      query: [],
      fallback: "not_found",
      listed: false,
      tags: ["Bulk and sync"],
      summary: "Get one piece of a list or of the export",
      description:
        "A run of consecutive items of one list (as `GET /software` pages hold them) or of the export's `software` array, " +
        "as one JSON array. Each list and the export are cut into pieces where the content says (the cut after an item " +
        "depends only on that item's slug and the distance from the cut before), so one edited or inserted tool changes " +
        "one piece or two of each list it is in, never the pieces after it. The hash tree names each list's pieces and " +
        "the export's parts in order; a piece's id is the SHA-256 of its body, so a copy checks what it fetched by its name " +
        "and fetches only the pieces it does not hold. Joining a list's pieces without their brackets, by `,`, gives the " +
        "list's items.",
      success: {
        description: "The piece's items, in list order.",
        schema: "SyncPiece",
      },
      errorResponses: [{ status: 404, why: "No piece has this id.", errors: ["not_found"] }],
    },
    getOpenApi: {
      path: "/openapi.json",
      pathParams: {},
      query: [],
      fallback: "not_found",
      tags: ["Description"],
      summary: "Get this OpenAPI description",
      description: `The OpenAPI 3.1 description of the API, \`info.version\` ${API_VERSION}.`,
      success: { description: "This document.", schema: null },
      errorResponses: [],
    },
  } satisfies Record<string, Operation>;
}

export type OperationId = keyof typeof OPERATIONS;

/** Every operation as its full description, in order. */
export const operationList = (): [OperationId, Operation][] => Object.entries(OPERATIONS) as [OperationId, Operation][];

/** The endpoints the not_found hint names: every listed operation, a required parameter shown with its placeholder. */
export function endpointList(base: string): string {
  return operationList()
    .filter(([, op]) => op.listed !== false)
    .map(([, op]) => {
      const required = op.query.filter((p) => p.absentError !== undefined);
      const query = required.map((p) => `${p.name}={${p.placeholder ?? p.name}}`).join("&");
      return `${base}${op.path}${query ? `?${query}` : ""}`;
    })
    .join(", ");
}
