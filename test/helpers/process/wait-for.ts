// Polling for what a running process will do (print its address, serve a new body), with a bound and a name to say.

/** The first value of `check` that is not undefined, polled every 50 ms for at most `ms`; the error names `what`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms = 15_000,
): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
