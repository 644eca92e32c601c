// Every error body of a build (H4): one per error id of the route table and of the hosts, and offset_out_of_range per
// list filter (its hint names the list's total).
import { errorBodies, offsetOutOfRangeBody } from "../api/contract/error-bodies.ts";
import {
  ERROR_STATUS,
  type ErrorId,
  fill,
  HOST_ERROR_STATUS,
  type HostErrorId,
  type RouteLayout,
} from "../api/runtime/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import { lazyFile, type OutputFile } from "./output.ts";
import { listFilters } from "./software-pages.ts";

export function* renderErrors(catalog: Catalog, files: RouteLayout): Generator<OutputFile> {
  const base = catalog.site.basePath;
  // Keyed by what they are made from (with the code): a rebuild keeps them without making or checking them again.
  let bodies: ReturnType<typeof errorBodies> | undefined;
  for (const id of [...Object.keys(ERROR_STATUS), ...Object.keys(HOST_ERROR_STATUS)] as (ErrorId | HostErrorId)[])
    yield lazyFile(fill(files.error, { id }), `errors ${base}`, () => (bodies ??= errorBodies(base))[id]);
  for (const { filter, category, tools } of listFilters(catalog)) {
    const key = `offset_out_of_range ${JSON.stringify([category, tools.length])}`;
    yield lazyFile(fill(files.offsetOutOfRange, { filter }), key, () => offsetOutOfRangeBody(category, tools.length));
  }
}
