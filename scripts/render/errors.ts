// Every error body of a build (H4): one per error id of the route table and of the hosts, and offset_out_of_range per
// list filter (its hint names the list's total).
import { errorBodies, errorBody } from "../api/error-bodies.ts";
import { ERROR_STATUS, type ErrorId, fill, HOST_ERROR_STATUS, type HostErrorId, layout } from "../api/route-table.ts";
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
    const total = tools.length;
    const list = category === null ? "The list" : `The list of category "${category}"`;
    yield {
      path: fill(files.offsetOutOfRange, { filter }),
      body: errorBody(
        "offset_out_of_range",
        "offset is beyond the end of the list.",
        `${list} has ${total} tool${total === 1 ? "" : "s"}: use an offset from 0 to ${total}.`,
      ),
    };
  }
}
