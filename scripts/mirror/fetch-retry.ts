// GET with what a polite client of a public API does: a bounded number of tries, backoff on 429, 5xx and network
// errors (Retry-After honoured up to a cap), and a fixed number of requests in flight.

export interface FetchOptions {
  /** requests in flight at once */
  concurrency: number;
  /** tries per request, the first included */
  tries: number;
  /** first backoff; doubled per try, capped at maxDelayMs */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_FETCH: FetchOptions = { concurrency: 8, tries: 5, baseDelayMs: 250, maxDelayMs: 10_000 };

export class FetchError extends Error {}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const retryable = (status: number) => status === 429 || status >= 500;

/** Seconds or an HTTP date, as Retry-After allows; undefined when absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** A final answer: its status, headers and whole body. */
export interface Fetched {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/** A fetcher sharing one concurrency limit: `get` resolves to the answer once its status is final. */
export function politeFetcher(options: FetchOptions = DEFAULT_FETCH) {
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = async () => {
    while (active >= options.concurrency) await new Promise<void>((go) => waiting.push(go));
    active++;
  };
  const release = () => {
    active--;
    waiting.shift()?.();
  };
  let requests = 0;
  let retries = 0;

  async function get(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
    for (let attempt = 1; ; attempt++) {
      await slot();
      let response: Response | undefined;
      let failure: unknown;
      try {
        requests++;
        response = await fetch(url, { headers });
        // Read the body inside the slot, so in-flight bytes stay bounded too.
        if (!retryable(response.status))
          return {
            status: response.status,
            headers: response.headers,
            body: new Uint8Array(await response.arrayBuffer()),
          };
        await response.arrayBuffer();
      } catch (e) {
        failure = e;
      } finally {
        release();
      }
      if (attempt >= options.tries)
        throw new FetchError(
          `GET ${url} failed ${attempt} times: ${response ? `HTTP ${response.status}` : String((failure as Error)?.message ?? failure)}`,
        );
      retries++;
      const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.min(options.maxDelayMs, retryAfterMs(response?.headers.get("retry-after") ?? null) ?? backoff));
    }
  }
  return { get, stats: () => ({ requests, retries }) };
}
