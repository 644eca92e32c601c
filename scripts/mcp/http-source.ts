// Answers from a deployed API: one GET per call, the body passed on as received.
import { type CatalogSource, SourceUnavailable } from "./source.ts";

/** A slow API fails the call rather than hanging the client. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** Statuses the API answers with a contract body: success, and its JSON errors. */
const API_STATUSES = new Set([200, 400, 404]);

/** `https://api.example.com/v1/` → `https://api.example.com/v1`; anything but an http(s) URL is refused. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--base-url ${raw} is not a URL (example: https://api.example.com/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`--base-url ${raw} is not an http or https URL`);
  if (url.search || url.hash) throw new Error(`--base-url ${raw} must not carry a query or fragment`);
  return url.href.replace(/\/+$/, "");
}

export function createHttpSource(baseUrl: string, timeoutMs = REQUEST_TIMEOUT_MS): CatalogSource {
  return {
    remote: true,
    async get(target, options = {}) {
      const url = baseUrl + target;
      let response: Response;
      const headers: Record<string, string> = { accept: "application/json" };
      if (options.ifNoneMatch !== undefined) headers["if-none-match"] = options.ifNoneMatch;
      try {
        response = await fetch(url, {
          headers,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
        throw new SourceUnavailable(`the API at ${baseUrl} did not answer (${cause})`);
      }
      const body = await response.text();
      const etag = response.headers.get("etag") ?? undefined;
      if (response.status === 304 && options.ifNoneMatch !== undefined) return { status: 304, body, etag };
      const json = (response.headers.get("content-type") ?? "").startsWith("application/json");
      if (!API_STATUSES.has(response.status) || !json) {
        throw new SourceUnavailable(
          `the API at ${baseUrl} answered ${url} with ${response.status} ${json ? "" : "(not JSON) "}— is --base-url the API's base path?`,
        );
      }
      return { status: response.status, body, ...(etag === undefined ? {} : { etag }) };
    },
  };
}
