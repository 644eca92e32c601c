// The same typed client against a file host (an export on GitHub Pages, S3, Cloudflare Pages, `npx serve`): each API
// request is sent as the file that answers it (docs/hosts/static-hosts.md, "File paths to fetch"), and lists are walked
// only at page sizes the export holds (an aligned export names them in v1/software/pages/limits.json).
import createClient from "openapi-fetch";
import type { paths } from "./api.ts";

/** `https://host/v1/software?limit=20&offset=40` → `https://host/v1/software/pages/all/20/40.json`, and so on. */
export function fileUrlOf(url: URL, basePath: string): URL {
  const below = url.pathname.slice(basePath.length).replace(/\/$/, "");
  const q = url.searchParams;
  const file = (path: string) => new URL(`${basePath}${path}`, url.origin);
  if (below === "/software") {
    const category = q.get("category");
    const filter = category === null ? "all" : `category/${category}`;
    return file(`/software/pages/${filter}/${q.get("limit") ?? 20}/${q.get("offset") ?? 0}.json`);
  }
  if (below === "/search") return file(`/search/${q.get("q")}.json`);
  if (/^\/(software|best)\/[^/]+$/.test(below) || below === "/categories") return file(`${below}.json`);
  return file(below); // openapi.json, export/catalog.json, sync/…: at their own paths
}

export interface FileHostClient {
  client: ReturnType<typeof createClient<paths>>;
  /** the page sizes whose pages are all there: those of an aligned export, else every limit the API allows */
  pageLimits: number[];
}

/** `siteUrl`: where the export is served (https://user.github.io/repo); `basePath`: the API's base path. */
export async function createFileHostClient(siteUrl: string, basePath = "/v1"): Promise<FileHostClient> {
  const limitsFile = await fetch(`${siteUrl}${basePath}/software/pages/limits.json`);
  const aligned = limitsFile.ok ? ((await limitsFile.json()) as { limits: number[] }) : undefined;
  const origin = new URL(siteUrl);
  const client = createClient<paths>({
    baseUrl: `${siteUrl}${basePath}`,
    fetch: async (request: Request) => {
      const url = new URL(request.url);
      const fileUrl = fileUrlOf(url, origin.pathname.replace(/\/$/, "") + basePath);
      const answer = await fetch(fileUrl, { headers: request.headers });
      // A search prefix no name has is no file: the export holds the empty answer once.
      if (answer.status === 404 && url.pathname.endsWith("/search"))
        return fetch(new URL(`${basePath}/search/_none.json`, fileUrl.origin));
      return answer;
    },
  });
  return { client, pageLimits: aligned?.limits ?? Array.from({ length: 100 }, (_, i) => i + 1) };
}
