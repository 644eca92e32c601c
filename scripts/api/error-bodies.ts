// The fixed error bodies of the API (H4), by error id: the route table's errors and the two a host gives on its own.
// They depend on the base path only, so every host adapter names the same bytes the build writes. Each is checked
// against the error schema when it is made.

import { assertValid } from "../schemas/check.ts";
import type { ErrorBody, ErrorCode } from "./response-schemas.ts";
import { type ErrorId, type HostErrorId, RETRY_AFTER_SECONDS } from "./route-table.ts";

/** Error bodies are compact JSON, keys in the contract's order. */
export function errorBody(code: ErrorCode, message: string, hint?: string): string {
  const body: ErrorBody = { error: hint === undefined ? { code, message } : { code, message, hint } };
  return JSON.stringify(assertValid("responses/error-response.schema.json", body, `error ${code}`));
}

/** The body of each fixed error: they depend on the base path only, so host adapters can name them too. */
export function errorBodies(base: string): Record<ErrorId | HostErrorId, string> {
  return {
    not_found: errorBody(
      "not_found",
      "No endpoint answers at this path.",
      `Endpoints: GET ${base}/software, ${base}/software/{slug}, ${base}/categories, ${base}/best/{categorySlug}, ${base}/search?q={prefix}, ${base}/export/catalog.json, ${base}/sync/index.json, ${base}/openapi.json.`,
    ),
    method_not_allowed: errorBody(
      "method_not_allowed",
      "This API is read-only: only GET, HEAD and OPTIONS are served.",
    ),
    invalid_limit: errorBody(
      "invalid_limit",
      "limit must be a whole number from 1 to 100.",
      "Send limit once, as plain digits without sign or leading zero, e.g. limit=20 (the default).",
    ),
    invalid_offset: errorBody(
      "invalid_offset",
      "offset must be a whole number of 0 or more.",
      "Send offset once, as plain digits without sign or leading zero, e.g. offset=0 (the default).",
    ),
    software_not_found: errorBody(
      "software_not_found",
      "No tool has this slug.",
      `Tool slugs come from GET ${base}/software.`,
    ),
    category_not_found: errorBody(
      "category_not_found",
      "No category has this slug.",
      `Category slugs come from GET ${base}/categories.`,
    ),
    category_repeated: errorBody(
      "category_not_found",
      "category was given more than once.",
      `Send one category; its slug comes from GET ${base}/categories.`,
    ),
    invalid_query: errorBody(
      "invalid_query",
      "q must be given once, as 1 to 32 lower-case letters a-z or digits 0-9.",
      "Search by the start of a word of a tool's name, lower-case without accents, e.g. q=mail.",
    ),
    bad_request: errorBody(
      "bad_request",
      "The request is not valid HTTP/1.1: its Transfer-Encoding, Content-Length or chunked body cannot be read.",
      "Send GET, HEAD or OPTIONS requests without a body.",
    ),
    service_unavailable: errorBody(
      "service_unavailable",
      "The server is out of file descriptors for a moment.",
      `Retry after ${RETRY_AFTER_SECONDS} second.`,
    ),
  };
}
