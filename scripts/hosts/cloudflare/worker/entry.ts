// The Worker module's entry, bundled once per code change (bundle-cache.cjs): the route table and the error bodies
// are written in place of these two names by scripts/hosts/cloudflare/adapter.ts, so the bundle itself holds no data.
import type { ErrorId, HostErrorId, RouteTable } from "../../../api/runtime/route-table.ts";
import { createWorker } from "./worker.ts";

declare const __ROUTE_TABLE__: RouteTable;
declare const __ERROR_BODIES__: Record<ErrorId | HostErrorId, string>;

export default createWorker(__ROUTE_TABLE__, __ERROR_BODIES__);
