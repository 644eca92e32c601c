// serve and Netlify answer every missing file with one fixed page (404.html), never with a file we name.
// That page must be the not_found body, byte for byte: it is taken from the error renderer, not written here.
import type { Catalog } from "../model/derive.ts";
import { renderErrors } from "../render/errors.ts";
import type { OutputFile } from "../render/output.ts";
import type { ErrorId, RouteTable } from "../render/route-table.ts";

/** The body the build writes at table.errors[id].file. The error bodies depend on the base path only. */
export function errorBody(table: RouteTable, id: ErrorId): OutputFile["body"] {
  // renderErrors reads site.basePath and the filter list; an empty catalog yields the per-id bodies unchanged.
  const catalog = { site: { basePath: table.basePath }, tools: [], categories: [] } as unknown as Catalog;
  const file = table.errors[id].file;
  for (const out of renderErrors(catalog)) if (out.path === file) return out.body;
  throw new Error(`the error renderer writes no ${file}`);
}
