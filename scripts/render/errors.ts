// Every error body a static host needs (H4): one per error id, and offset_out_of_range per list filter.
import type { ErrorBody, ErrorCode } from "../api/response-schemas.ts";
import type { Catalog } from "../model/derive.ts";
import { assertValid } from "../schemas/check.ts";
import { json, type OutputFile } from "./output.ts";
import { ERROR_STATUS, fill, layout, type ErrorId } from "../api/route-table.ts";
import { listFilters } from "./software-pages.ts";

export function errorBody(code: ErrorCode, message: string, hint?: string): string {
  const body: ErrorBody = { error: hint === undefined ? { code, message } : { code, message, hint } };
  return json(assertValid("responses/error-response.schema.json", body, `error ${code}`));
}

/** The body of each fixed error: they depend on the base path only, so host adapters can name them too. */
export function errorBodies(base: string): Record<ErrorId, string> {
  return {
    not_found: errorBody(
      "not_found",
      "No endpoint answers at this path.",
      `Endpoints: GET ${base}/software, ${base}/software/{slug}, ${base}/categories, ${base}/best/{categorySlug}, ${base}/openapi.json.`,
    ),
    method_not_allowed: errorBody("method_not_allowed", "This API is read-only: only GET, HEAD and OPTIONS are served."),
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
    software_not_found: errorBody("software_not_found", "No tool has this slug.", `Tool slugs come from GET ${base}/software.`),
    category_not_found: errorBody("category_not_found", "No category has this slug.", `Category slugs come from GET ${base}/categories.`),
    category_repeated: errorBody(
      "category_not_found",
      "category was given more than once.",
      `Send one category; its slug comes from GET ${base}/categories.`,
    ),
  };
}

export function* renderErrors(catalog: Catalog): Generator<OutputFile> {
  const files = layout(catalog.site.basePath);
  const bodies = errorBodies(catalog.site.basePath);
  for (const id of Object.keys(ERROR_STATUS) as ErrorId[]) {
    yield { path: fill(files.error, { id }), body: bodies[id] };
  }
  for (const { filter, category, tools } of listFilters(catalog)) {
    const total = tools.length;
    const list = category === null ? "The list" : `The list of category "${category}"`;
    yield {
      path: fill(files.offsetOutOfRange, { filter }),
      body: errorBody("offset_out_of_range", "offset is beyond the end of the list.", `${list} has ${total} tool${total === 1 ? "" : "s"}: use an offset from 0 to ${total}.`),
    };
  }
}
