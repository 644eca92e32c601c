// The fixed error bodies of the API (H4), by error id: the route table's errors and the two a host gives on its own.
// Their words are the operations' description's (operations.ts). They depend on the base path only, so every host
// adapter names the same bytes the build writes. Each is checked against the error schema when it is made.

import { assertValid } from "../../schemas/check.ts";
import { ERRORS, endpointList, HOST_ERROR_STATUS, ROUTE_ERROR_STATUS } from "../operations.ts";
import type { ErrorId, HostErrorId } from "../runtime/route-table.ts";
import type { ErrorBody, ErrorCode } from "./response-schemas.ts";

/** Error bodies are compact JSON, keys in the contract's order. */
export function errorBody(code: ErrorCode, message: string, hint?: string): string {
  const body: ErrorBody = { error: hint === undefined ? { code, message } : { code, message, hint } };
  return JSON.stringify(assertValid("responses/error-response.schema.json", body, `error ${code}`));
}

/** The body of each fixed error: they depend on the base path only, so host adapters can name them too. */
export function errorBodies(base: string): Record<ErrorId | HostErrorId, string> {
  const ids = [...Object.keys(ROUTE_ERROR_STATUS), ...Object.keys(HOST_ERROR_STATUS)] as (ErrorId | HostErrorId)[];
  const endpoints = endpointList(base);
  return Object.fromEntries(
    ids.map((id) => {
      const error: (typeof ERRORS)[ErrorId | HostErrorId] = ERRORS[id];
      return [id, errorBody(error.code, error.message, "hint" in error ? error.hint({ base, endpoints }) : undefined)];
    }),
  ) as Record<ErrorId | HostErrorId, string>;
}

/** offset_out_of_range of one list (its category, or null for every tool): its hint names the list's total. */
export function offsetOutOfRangeBody(category: string | null, total: number): string {
  const error = ERRORS.offset_out_of_range;
  return errorBody(error.code, error.message, error.hint({ base: "", endpoints: "", category, total }));
}
