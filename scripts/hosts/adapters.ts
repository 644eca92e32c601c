// Host adapters: each turns the one route table into a host's config files. None renders a body.

import type { RouteTable } from "../api/runtime/route-table.ts";
import type { OutputFile } from "../render/output.ts";
import type { AdapterBuild } from "./adapter-build.ts";
import { cloudflareAdapter } from "./cloudflare/adapter.ts";
import { nginxAdapter } from "./nginx/adapter.ts";
import { netlifyAdapter } from "./static/netlify.ts";
import { serveAdapter } from "./static/serve-json.ts";

export type Adapter = (table: RouteTable, build: AdapterBuild) => OutputFile[];

export const adapters: Record<string, Adapter> = {
  cloudflare: cloudflareAdapter,
  netlify: netlifyAdapter,
  nginx: nginxAdapter,
  serve: serveAdapter,
};
