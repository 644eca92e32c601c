// Normal requests through Node's fetch (undici). It normalises `..`, backslashes and bad escapes: see raw-http.ts.
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** the parsed body; throws when it is not JSON */
  json: () => unknown;
  target: string;
}

export class Client {
  constructor(readonly origin: string) {}

  async request(target: string, init: RequestInit = {}): Promise<Reply> {
    // redirect "manual": a redirect is an answer to check, never to follow (P2 says no redirect)
    const res = await fetch(this.origin + target, { redirect: "manual", ...init }).catch(
      (e: Error & { cause?: { code?: string } }) => {
        // A server may close a kept-alive connection just as the next request goes out on it (RFC 9112 §9.3.1);
        // undici retries that only for idempotent methods, so the suite retries once on a fresh connection.
        if (e.cause?.code !== "UND_ERR_SOCKET") throw e;
        return fetch(this.origin + target, { redirect: "manual", ...init });
      },
    );
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: () => {
        try {
          return JSON.parse(text);
        } catch {
          throw new Error(`${init.method ?? "GET"} ${target}: ${res.status} body is not JSON: ${text.slice(0, 200)}`);
        }
      },
      target,
    };
  }

  get(target: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request(target, { headers });
  }

  /** GET and parse, expecting 200 */
  async data<T = any>(target: string): Promise<T> {
    const reply = await this.get(target);
    if (reply.status !== 200)
      throw new Error(`GET ${target}: expected 200, got ${reply.status}: ${reply.text.slice(0, 300)}`);
    return reply.json() as T;
  }
}
