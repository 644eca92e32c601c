// The prose of the OpenAPI description outside its operations (each operation's is in scripts/api/operations.ts): the
// tags and the API's description, worded after the contract and the decisions.
// Public text: rules are said in words here, never by their ids in the decisions (a reader of the API has no use for "Q8").
import { ERRORS, HOST_ERROR_STATUS } from "../api/operations.ts";

export const TAGS = [
  { name: "Software", description: "Published tools: the paginated list and each tool's detail." },
  { name: "Categories", description: "Categories with their counts and top tool, and each category's price ranking." },
  { name: "Search", description: "Tools by the start of a word of their name." },
  {
    name: "Bulk and sync",
    description:
      "The whole catalog in one body, and a hash tree over every body and every list, cut into pieces, so a copy can fetch only what changed.",
  },
  { name: "Description", description: "This OpenAPI description itself." },
];

/** Each operation's summary and description are its description's (scripts/api/operations.ts). */
export { OPERATIONS } from "../api/operations.ts";

/** The codes an error body of the API can carry, those any path can get last; a host's own (bad_request,
 *  service_unavailable) are its page's. */
function apiErrorCodes(): string[] {
  const ids = (Object.keys(ERRORS) as (keyof typeof ERRORS)[]).filter((id) => !(id in HOST_ERROR_STATUS));
  const anyPath = (id: keyof typeof ERRORS) => "anyPath" in ERRORS[id];
  const ordered = [...ids.filter((id) => !anyPath(id)), ...ids.filter(anyPath)];
  return [...new Set(ordered.map((id) => `\`${ERRORS[id].code}\``))];
}

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
    `**Errors.** Error bodies are \`{ "error": { "code", "message", "hint"? } }\`. Codes: ${apiErrorCodes().join(", ")}.`,
  ].join("\n");
