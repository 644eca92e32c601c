// The Worker module's entry, bundled once per code change (bundle-cache.cjs): the route table, the error bodies and the
// package version are written in place of these three names by scripts/hosts/cloudflare/adapter.ts, so the bundle
// itself holds no data.
import type { ErrorId, HostErrorId, RouteTable } from "../../../api/runtime/route-table.ts";
import { createWorker } from "./worker.ts";

declare const __ROUTE_TABLE__: RouteTable;
declare const __ERROR_BODIES__: Record<ErrorId | HostErrorId, string>;
declare const __PACKAGE_VERSION__: string;

export default createWorker(__ROUTE_TABLE__, __ERROR_BODIES__, __PACKAGE_VERSION__);
