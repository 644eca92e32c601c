// serve and Netlify answer every missing file with one fixed page (404.html), never with a file we name.
// That page must be the not_found body, byte for byte: it is taken from the error renderer, not written here.
import { errorBodies } from "../../render/errors.ts";
import type { OutputFile } from "../../render/output.ts";
import type { ErrorId, RouteTable } from "../../api/route-table.ts";

/** The body the build writes at table.errors[id].file. */
export function errorBody(table: RouteTable, id: ErrorId): OutputFile["body"] {
  return errorBodies(table.basePath)[id];
}
