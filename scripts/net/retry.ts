// The one retry policy of the commands that talk over a network (upload:r2 --remote, mirror): how long one attempt
// may wait in each phase (deadlines), which failures are tried again (a dropped connection, a cut answer, a deadline
// passed, 408, 429 and 5xx answers), how long to wait between attempts (exponential backoff with jitter,
// Retry-After honoured) and when to stop (a number of attempts and a total budget), with one line saying what
// failed. The transport is http-request.ts; what is safe to try again is the caller's to say.

/** How long one attempt may wait without progress, phase by phase. */
export interface Deadlines {
  /** to open the connection (DNS, TCP and TLS) */
  connectMs: number;
  /** from the request's last byte sent to the answer's status line */
  answerMs: number;
  /** without a byte of progress while a body streams, the request's or the answer's */
  stallMs: number;
}

export interface RetryPolicy {
  /** attempts per request, the first included */
  tries: number;
  /** no attempt starts once this long has passed since the first one started */
  budgetMs: number;
  /** the first backoff, doubled per attempt up to maxDelayMs; each wait is drawn between half of it and all of it */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_DEADLINES: Deadlines = { connectMs: 10_000, answerMs: 30_000, stallMs: 30_000 };
export const DEFAULT_RETRY: RetryPolicy = { tries: 8, budgetMs: 40_000, baseDelayMs: 500, maxDelayMs: 8_000 };

/**
 * The bounds the deadlines and the policy promise (see docs/hosts/cloudflare.md#deadlines-and-retries):
 * - `stalledAttemptMs`: an attempt that stops making progress is given up at most this long after it stopped (the
 *   connection it waits for, the answer it waits for after its last byte, or the next byte of a body);
 * - `attemptWithoutProgressMs`: an attempt that never makes progress (an endpoint that accepts nothing, or accepts
 *   and never answers) ends at most this long after it started;
 * - `requestMs`: a request to an endpoint that stops answering altogether fails at most this long after the later
 *   of its start and the moment the endpoint stopped: no attempt starts past the budget, and the last one ends
 *   within `attemptWithoutProgressMs`.
 */
export function upperBounds(d: Deadlines, r: RetryPolicy) {
  const stalledAttemptMs = Math.max(d.connectMs, d.answerMs, d.stallMs);
  const attemptWithoutProgressMs = d.connectMs + Math.max(d.answerMs, d.stallMs);
  return { stalledAttemptMs, attemptWithoutProgressMs, requestMs: r.budgetMs + attemptWithoutProgressMs };
}

/** A failure worth another attempt: a network failure, a passed deadline, or an answer such as 503. */
export class Retryable extends Error {
  constructor(
    message: string,
    /** the server's Retry-After, when it gave one */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A request given up: one line naming it, its attempts and the last cause. */
export class GaveUp extends Error {
  constructor(
    message: string,
    readonly attempts: number,
  ) {
    super(message);
  }
}

/** Statuses that say "not now" rather than "no": tried again. */
export const retryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** Seconds or an HTTP date, as Retry-After allows; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait after failed attempt `n` (1-based): base·2^(n-1) capped, jittered to [½, 1] of it, never shorter than
 *  a Retry-After, never longer than the cap. */
export function backoffMs(n: number, policy: RetryPolicy, random: () => number, retryAfter?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  return Math.min(policy.maxDelayMs, Math.max(jittered, retryAfter ?? 0));
}

export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

export const realClock: RetryClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
  random: Math.random,
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs `attempt` until it returns, throws something not Retryable (passed on as it is), or the policy says stop:
 * then a GaveUp whose message is `<what>: gave up after N attempts in S s; last: <cause>`. `attempt` is given its
 * number and the previous attempt's failure (undefined for the first), so a request that is not idempotent can
 * look at what the store now holds before trying again.
 */
export async function withRetries<T>(
  what: string,
  policy: RetryPolicy,
  attempt: (n: number, previous: Retryable | undefined) => Promise<T>,
  clock: RetryClock = realClock,
): Promise<T> {
  const started = clock.now();
  let previous: Retryable | undefined;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n, previous);
    } catch (e) {
      if (!(e instanceof Retryable)) throw e;
      previous = e;
      const wait = backoffMs(n, policy, clock.random, e.retryAfterMs);
      const elapsed = clock.now() - started;
      if (n >= policy.tries || elapsed + wait >= policy.budgetMs)
        throw new GaveUp(
          `${what}: gave up after ${n} attempt${n === 1 ? "" : "s"} in ${seconds(elapsed)}; last: ${e.message}`,
          n,
        );
      await clock.sleep(wait);
    }
  }
}

/** Deadlines and a policy from the environment (seconds; NAME_CONNECT_TIMEOUT, NAME_ANSWER_TIMEOUT,
 *  NAME_STALL_TIMEOUT, NAME_RETRY_FOR, NAME_TRIES with the prefix given), over the defaults; a bad value throws a
 *  one-line message naming the variable. */
export function networkSettingsFromEnv(
  prefix: string,
  env: NodeJS.ProcessEnv = process.env,
  defaults: { deadlines: Deadlines; retry: RetryPolicy } = { deadlines: DEFAULT_DEADLINES, retry: DEFAULT_RETRY },
): { deadlines: Deadlines; retry: RetryPolicy } {
  const read = (name: string, fallback: number, unit: number, whole = false) => {
    const raw = env[`${prefix}_${name}`];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value)))
      throw new RangeError(
        `${prefix}_${name}=${raw}: ${whole ? "a whole number of 1 or more" : "a number of seconds above 0"}`,
      );
    return value * unit;
  };
  return {
    deadlines: {
      connectMs: read("CONNECT_TIMEOUT", defaults.deadlines.connectMs, 1000),
      answerMs: read("ANSWER_TIMEOUT", defaults.deadlines.answerMs, 1000),
      stallMs: read("STALL_TIMEOUT", defaults.deadlines.stallMs, 1000),
    },
    retry: {
      ...defaults.retry,
      budgetMs: read("RETRY_FOR", defaults.retry.budgetMs, 1000),
      tries: read("TRIES", defaults.retry.tries, 1, true),
    },
  };
}
