// The retry policy's arithmetic and loop, on a fake clock: what the defaults promise (a stalled request given up
// within 60 s, an endpoint that stops answering failing an upload within 3 minutes), the backoff's bounds, the budget,
// and the one line a request given up ends with.
import { describe, expect, it } from "vitest";
import {
  backoffMs,
  DEFAULT_DEADLINES,
  DEFAULT_RETRY,
  GaveUp,
  networkSettingsFromEnv,
  Retryable,
  type RetryClock,
  retryAfterMs,
  upperBounds,
  withRetries,
} from "../../../scripts/net/retry.ts";

/** A clock that moves only when the loop sleeps, or when an attempt says it took time. */
function fakeClock(random = () => 0.5): RetryClock & { slept: number[]; advance(ms: number): void } {
  let now = 0;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
    random,
    slept,
    advance: (ms) => {
      now += ms;
    },
  };
}

describe("the default deadlines and policy", () => {
  const bounds = upperBounds(DEFAULT_DEADLINES, DEFAULT_RETRY);

  it("give a stalled attempt up within 60 s of its last progress, and one that never progresses within 60 s", () => {
    expect(bounds.stalledAttemptMs).toBe(30_000);
    expect(bounds.attemptWithoutProgressMs).toBe(40_000);
    expect(bounds.stalledAttemptMs).toBeLessThanOrEqual(60_000);
    expect(bounds.attemptWithoutProgressMs).toBeLessThanOrEqual(60_000);
  });

  it("fail an upload whose endpoint stops answering within 3 minutes, the switch's read-back included", () => {
    // A request fails at most requestMs after the later of its start and the endpoint's stop. The longest chain
    // after the stop is the switch: its conditional PUT, then one read of the pointer to say whether it is live. A
    // pack's multipart upload adds an abort of two attempts over 5 s at most.
    expect(bounds.requestMs).toBe(80_000);
    expect(2 * bounds.requestMs).toBeLessThanOrEqual(180_000);
    const abortMs = 5_000 + bounds.attemptWithoutProgressMs;
    expect(bounds.requestMs + abortMs).toBeLessThanOrEqual(180_000);
  });
});

describe("backoffMs", () => {
  const policy = { tries: 10, budgetMs: 1e9, baseDelayMs: 500, maxDelayMs: 8_000 };
  it("doubles from the base to the cap, jittered between half of it and all of it", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, policy, () => 0))).toEqual([250, 500, 1000, 2000, 4000, 4000]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, policy, () => 0.999999))).toEqual(
      [500, 1000, 2000, 4000, 8000, 8000].map((ms) => expect.closeTo(ms, 0)),
    );
  });
  it("waits at least a Retry-After, never past the cap", () => {
    expect(backoffMs(1, policy, () => 0, 3_000)).toBe(3_000);
    expect(backoffMs(1, policy, () => 0, 60_000)).toBe(8_000);
    expect(retryAfterMs("2")).toBe(2_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs("soon")).toBeUndefined();
  });
});

describe("withRetries", () => {
  const policy = { tries: 5, budgetMs: 10_000, baseDelayMs: 100, maxDelayMs: 1_000 };

  it("tries a Retryable failure again and returns the first success", async () => {
    const clock = fakeClock();
    let n = 0;
    const value = await withRetries(
      "R2 GET live.json",
      policy,
      async (attempt, previous) => {
        n = attempt;
        if (attempt === 1) expect(previous).toBeUndefined();
        else expect(previous?.message).toBe("503 SlowDown");
        if (attempt < 3) throw new Retryable("503 SlowDown");
        return "ok";
      },
      clock,
    );
    expect(value).toBe("ok");
    expect(n).toBe(3);
    expect(clock.slept).toEqual([75, 150]);
  });

  it("passes anything else on at once, as it is", async () => {
    const refused = new Error("R2 PUT live.json: 403 AccessDenied");
    let n = 0;
    await expect(
      withRetries(
        "R2 PUT live.json",
        policy,
        async () => {
          n++;
          throw refused;
        },
        fakeClock(),
      ),
    ).rejects.toBe(refused);
    expect(n).toBe(1);
  });

  it("stops after its tries with one line naming the request, the attempts, the time and the last cause", async () => {
    const clock = fakeClock();
    const failure = withRetries(
      "R2 UploadPart 2 of packs/abc",
      policy,
      async () => {
        clock.advance(1_000);
        throw new Retryable("no answer within 1 s of the request");
      },
      clock,
    );
    await expect(failure).rejects.toBeInstanceOf(GaveUp);
    await expect(failure).rejects.toThrow(
      /^R2 UploadPart 2 of packs\/abc: gave up after 5 attempts in \d+\.\d s; last: no answer within 1 s of the request$/,
    );
  });

  it("starts no attempt past the budget: attempts that each stall for their deadline end within budget + one attempt", async () => {
    const clock = fakeClock();
    const deadlines = { connectMs: 1_000, answerMs: 3_000, stallMs: 3_000 };
    const budget = { tries: 100, budgetMs: 10_000, baseDelayMs: 100, maxDelayMs: 1_000 };
    const starts: number[] = [];
    const failure = withRetries(
      "R2 PUT live.json",
      budget,
      async () => {
        starts.push(clock.now());
        clock.advance(upperBounds(deadlines, budget).attemptWithoutProgressMs);
        throw new Retryable("no answer within 3 s of the request");
      },
      clock,
    );
    await expect(failure).rejects.toBeInstanceOf(GaveUp);
    expect(starts.every((at) => at < budget.budgetMs)).toBe(true);
    expect(clock.now()).toBeLessThanOrEqual(upperBounds(deadlines, budget).requestMs);
  });
});

describe("networkSettingsFromEnv", () => {
  it("reads seconds and tries over the defaults, and names a bad variable", () => {
    expect(networkSettingsFromEnv("R2", {})).toEqual({ deadlines: DEFAULT_DEADLINES, retry: DEFAULT_RETRY });
    const set = networkSettingsFromEnv("R2", { R2_ANSWER_TIMEOUT: "0.5", R2_RETRY_FOR: "3", R2_TRIES: "2" });
    expect(set.deadlines).toEqual({ ...DEFAULT_DEADLINES, answerMs: 500 });
    expect(set.retry).toEqual({ ...DEFAULT_RETRY, budgetMs: 3_000, tries: 2 });
    expect(() => networkSettingsFromEnv("R2", { R2_STALL_TIMEOUT: "soon" })).toThrow(/^R2_STALL_TIMEOUT=soon: /);
    expect(() => networkSettingsFromEnv("R2", { R2_TRIES: "1.5" })).toThrow(/^R2_TRIES=1.5: a whole number/);
  });
});
