// Every error body of a build (H4): one per error id of the route table and of the hosts, and offset_out_of_range per
// list filter (its hint names the list's total).
import { errorBodies, offsetOutOfRangeBody } from "../api/contract/error-bodies.ts";
import {
  ERROR_STATUS,
  type ErrorId,
  fill,
  HOST_ERROR_STATUS,
  type HostErrorId,
  layout,
} from "../api/runtime/route-table.ts";
import type { Catalog } from "../model/derive.ts";
import type { OutputFile } from "./output.ts";
import { listFilters } from "./software-pages.ts";

export function* renderErrors(catalog: Catalog): Generator<OutputFile> {
  const files = layout(catalog.site.basePath);
  const bodies = errorBodies(catalog.site.basePath);
  for (const id of [...Object.keys(ERROR_STATUS), ...Object.keys(HOST_ERROR_STATUS)] as (ErrorId | HostErrorId)[]) {
    yield { path: fill(files.error, { id }), body: bodies[id] };
  }
  for (const { filter, category, tools } of listFilters(catalog)) {
    yield { path: fill(files.offsetOutOfRange, { filter }), body: offsetOutOfRangeBody(category, tools.length) };
  }
}
