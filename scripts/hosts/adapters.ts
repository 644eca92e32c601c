// Host adapters: each turns the one route table into a host's config files. None renders a body.

import type { BuildLayout } from "../api/runtime/build-index.ts";
import type { RouteTable } from "../api/runtime/route-table.ts";
import type { OutputFile } from "../render/output.ts";
import { cloudflareAdapter } from "./cloudflare/adapter.ts";
import { nginxAdapter } from "./nginx/adapter.ts";
import { netlifyAdapter } from "./static/netlify.ts";
import { serveAdapter } from "./static/serve-json.ts";

/** What of a build, besides its route table, shapes a host's config (nginx answers a runs build's pages with njs). */
export interface AdapterBuild {
  /** how the build holds its lists (L2) */
  layout: BuildLayout;
  /** built with --compress: bodies of 1 KB and more have .br and .gz siblings */
  compress: boolean;
}

export type Adapter = (table: RouteTable, build: AdapterBuild) => OutputFile[];

export const adapters: Record<string, Adapter> = {
  cloudflare: cloudflareAdapter,
  netlify: netlifyAdapter,
  nginx: nginxAdapter,
  serve: serveAdapter,
};
