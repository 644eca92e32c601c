// Which files of a build a host that only serves files may publish: every body a route, an error or the docs page
// answers with, plus the host's own config files where the host reads them without serving them. Nothing else:
// routes.json, the build manifest, other hosts' configs (nginx/, serve.json, wrangler, the Worker), precompressed
// siblings and dotfiles stay local, so nothing internal is downloadable (an allow-list, so a new host config is
// never published by accident).
import type { RouteTable } from "../../api/runtime/route-table.ts";
import { servedFileFilter } from "../../api/served-files.ts";
import { NETLIFY_404_PAGE, NETLIFY_HEADERS, NETLIFY_REDIRECTS } from "./netlify.ts";

/**
 * File-only hosts by what they read from the published folder:
 * - static: GitHub Pages, S3, any web server pointed at the folder; /404.html is its not-found page where the
 *   host uses one (GitHub Pages does).
 * - cloudflare-pages: also `_headers` (Cloudflare Pages applies it and does not serve it); not `_redirects`,
 *   whose query conditions and 404 rewrites it does not document.
 * - netlify: `_redirects` and `_headers`.
 * - serve: `npx serve DIR`, a preview on this machine; the static copy holds its own serve.json (static-copy.ts). Not
 *   for a file host: it would serve that config as a file, and no host config is ever served.
 */
export const PUBLISH_HOSTS = {
  static: [NETLIFY_404_PAGE],
  "cloudflare-pages": [NETLIFY_404_PAGE, NETLIFY_HEADERS],
  netlify: [NETLIFY_404_PAGE, NETLIFY_REDIRECTS, NETLIFY_HEADERS],
  serve: [NETLIFY_404_PAGE],
} as const satisfies Record<string, readonly string[]>;

export type PublishHost = keyof typeof PUBLISH_HOSTS;

export const isPublishHost = (name: string): name is PublishHost => Object.hasOwn(PUBLISH_HOSTS, name);

/** A predicate over paths relative to the build folder (`/`-separated): true when `host` should publish it. */
export function publishedFileFilter(table: RouteTable, host: PublishHost): (path: string) => boolean {
  const served = servedFileFilter(table);
  const extras = new Set<string>(PUBLISH_HOSTS[host]);
  return (path) => extras.has(path) || served(path);
}
