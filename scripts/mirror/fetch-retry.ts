// GET with what a polite client of a public API does: the network's one retry policy (net/retry.ts: deadlines per
// attempt, 429, 5xx, dropped connections and cut answers tried again with backoff and jitter, Retry-After honoured,
// a budget), and a fixed number of requests in flight.
import { UserError } from "../cli/command.ts";
import { type HttpAnswer, httpRequest } from "../net/http-request.ts";
import {
  DEFAULT_DEADLINES,
  DEFAULT_RETRY,
  type Deadlines,
  GaveUp,
  Retryable,
  type RetryPolicy,
  realClock,
  retryAfterMs,
  retryableStatus,
  withRetries,
} from "../net/retry.ts";

export interface FetchOptions extends RetryPolicy {
  /** requests in flight at once */
  concurrency: number;
  deadlines?: Deadlines;
}

export const DEFAULT_FETCH: FetchOptions = { concurrency: 8, ...DEFAULT_RETRY, deadlines: DEFAULT_DEADLINES };

/** A GET given up: one line (the URL, the attempts, the last cause), exit 1; the previous copy is kept. */
export class FetchError extends UserError {}

/** A final answer: its status, headers and whole body (decoded when it came compressed). */
export type Fetched = HttpAnswer;

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
    try {
      return await withRetries(
        `GET ${url}`,
        options,
        async (n) => {
          if (n > 1) retries++;
          // The body is read inside the slot, so in-flight bytes stay bounded too; no slot is held while waiting.
          await slot();
          try {
            requests++;
            const answer = await httpRequest({ method: "GET", url, headers }, options.deadlines ?? DEFAULT_DEADLINES, {
              decode: true,
              redirects: 5,
            });
            if (retryableStatus(answer.status))
              throw new Retryable(`HTTP ${answer.status}`, retryAfterMs(answer.headers.get("retry-after")));
            return answer;
          } finally {
            release();
          }
        },
        realClock,
      );
    } catch (e) {
      throw e instanceof GaveUp ? new FetchError(`${e.message}; the previous copy is kept`) : e;
    }
  }
  return { get, stats: () => ({ requests, retries }) };
}
