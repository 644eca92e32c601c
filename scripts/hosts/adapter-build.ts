// What of a build, besides its route table, shapes a host's config: its own file, so an adapter can name it without
// importing the list of adapters (adapters.ts) that imports the adapter.
import type { BuildLayout } from "../api/runtime/build-index.ts";

/** What of a build, besides its route table, shapes a host's config (nginx answers a runs build's pages with njs). */
export interface AdapterBuild {
  /** how the build holds its lists (L2) */
  layout: BuildLayout;
  /** built with --compress: bodies of 1 KB and more have .br and .gz siblings */
  compress: boolean;
}
