// A pages build's list pages as requests: what a host of the same catalog's runs build must answer byte for byte (L2).
import { readdir } from "node:fs/promises";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { layout } from "../../../scripts/api/runtime/route-table.ts";

export interface PageFile {
  /** the page file, relative to the build */
  file: string;
  /** the request target that answers it: `/v1/software?category=seo&limit=5&offset=10` */
  target: string;
}

/** Every list page file of the pages build in `distDir` (never a precompressed sibling), with its request target. */
export async function pageFiles(distDir: string, basePath: string): Promise<PageFile[]> {
  const template = layout(basePath).page;
  const root = template.slice(0, template.indexOf("{filter}"));
  // {filter}/{limit}/{offset}.json, and nothing planted beside them (the suite's canary dotfiles)
  const files = (await readdir(join(distDir, root), { recursive: true }))
    .filter((f) => /^(?:all|category\/[^/.][^/]*)\/[0-9]+\/[0-9]+\.json$/.test(f))
    .sort();
  return files.map((relative) => {
    const parts = relative.slice(0, -".json".length).split("/");
    const offset = parts.pop()!;
    const limit = parts.pop()!;
    const filter = parts.join("/");
    const category = filter === "all" ? "" : `category=${filter.slice("category/".length)}&`;
    return { file: root + relative, target: `${basePath}/software?${category}limit=${limit}&offset=${offset}` };
  });
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** as sent (still coded) */
  body: Buffer;
}

/** Keep-alive requests of raw bytes (fetch would decode them). */
export function rawClient(origin: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const send = (target: string, headers: Record<string, string> = {}, method = "GET") =>
    new Promise<Reply>((resolve, reject) => {
      const req = request(origin + target, { agent, headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  return { send, close: () => agent.destroy() };
}

/** The identity bytes of a reply (gzip decoded). */
export const decoded = (reply: Reply): Buffer =>
  reply.headers["content-encoding"] === "gzip" ? gunzipSync(reply.body) : reply.body;
