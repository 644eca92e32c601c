// One request with exactly the headers the load run sends: its status and ETag (node:http adds no Accept-Encoding).
import { request } from "node:http";

export function probe(
  origin: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; etag: string | null }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers, timeout: 5_000 }, (res) => {
      res.resume();
      res.once("end", () => {
        const etag = res.headers.etag;
        resolve({ status: res.statusCode ?? 0, etag: typeof etag === "string" ? etag : null });
      });
    });
    req.once("timeout", () => req.destroy(new Error(`${path}: no answer in 5 s`)));
    req.once("error", reject);
    req.end();
  });
}
