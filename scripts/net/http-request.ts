// One HTTP request with deadlines (retry.ts): node:http, not fetch, so each phase has its own clock: the connection,
// the request body (progress while it is sent), the answer's status line after the last byte, and the answer body
// (progress while it arrives). A deadline passed, a dropped connection or an answer shorter than its Content-Length
// is a Retryable naming the cause in words ("no answer within 30 s", "connection reset (ECONNRESET)", "the answer
// was cut after 10 of 512 bytes"), never fetch's bare "fetch failed". The whole answer is kept in memory: the
// callers' answers are small, or a range of a pack.
import http from "node:http";
import https from "node:https";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { type Deadlines, Retryable } from "./retry.ts";

export interface HttpRequest {
  method: string;
  url: string | URL;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface HttpOptions {
  /** ask for gzip or brotli and decode the answer (the mirror); never for bytes that must arrive as stored */
  decode?: boolean;
  /** redirects to follow (GET and HEAD only) */
  redirects?: number;
}

/** A dropped connection, a passed deadline, a cut answer: tried again by the policy. */
export class TransportError extends Retryable {}

const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};
/** Bodies are written in pieces this size, so progress is seen while a large part is sent. */
const PIECE = 64 * 1024;
const seconds = (ms: number) =>
  `${ms >= 1000 ? (ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1) : (ms / 1000).toFixed(2)} s`;

/** A network error in words: its code, and what the code means when it is a common one. */
function networkCause(e: NodeJS.ErrnoException, phase: string): string {
  const code = e.code ?? "";
  const meaning: Record<string, string> = {
    ECONNRESET: "connection reset",
    ECONNREFUSED: "connection refused",
    EPIPE: "connection closed while sending",
    ETIMEDOUT: "connection timed out",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host lookup failed",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
  };
  if (meaning[code]) return `${meaning[code]} ${phase} (${code})`;
  if (e.message === "socket hang up") return `connection closed ${phase} (socket hang up)`;
  return `${e.message || code || "network error"} ${phase}`;
}

/** One attempt of one request; throws TransportError for anything the network did. */
export async function httpRequest(
  request: HttpRequest,
  deadlines: Deadlines,
  options: HttpOptions = {},
): Promise<HttpAnswer> {
  let answer = await once(request, deadlines, options);
  for (let hops = 0; hops < (options.redirects ?? 0); hops++) {
    const location = answer.headers.get("location");
    if (![301, 302, 303, 307, 308].includes(answer.status) || !location) break;
    if (request.method !== "GET" && request.method !== "HEAD") break;
    request = { ...request, url: new URL(location, request.url) };
    answer = await once(request, deadlines, options);
  }
  return answer;
}

function once(request: HttpRequest, deadlines: Deadlines, options: HttpOptions): Promise<HttpAnswer> {
  const url = new URL(request.url);
  const lib = url.protocol === "https:" ? https : http;
  const agent = agents[url.protocol as keyof typeof agents];
  if (!agent) return Promise.reject(new Error(`${url.protocol} is not http: or https:`));
  const body = request.body;
  const headers: Record<string, string> = { ...request.headers };
  if (options.decode) headers["accept-encoding"] = "br, gzip";
  if (body !== undefined) headers["content-length"] = String(body.byteLength);

  return new Promise<HttpAnswer>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    // What the attempt is doing, for the message when it fails there.
    let phase = "while connecting";
    const req = lib.request(url, { method: request.method, headers, agent });
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    };
    const arm = (ms: number, message: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(new TransportError(message)), ms);
    };
    arm(deadlines.connectMs, `no connection within ${seconds(deadlines.connectMs)}`);
    req.on("error", (e) => fail(new TransportError(networkCause(e, phase))));

    let sent = false;
    const waitForAnswer = () => {
      sent = true;
      phase = "before the answer";
      arm(deadlines.answerMs, `no answer within ${seconds(deadlines.answerMs)} of the request`);
    };
    const connected = async () => {
      if (settled) return;
      if (body === undefined || body.byteLength === 0) {
        req.end(waitForAnswer);
        phase = "before the answer";
        return;
      }
      phase = "while sending the body";
      const stalled = `no progress for ${seconds(deadlines.stallMs)} while sending the body`;
      arm(deadlines.stallMs, stalled);
      for (let at = 0; at < body.byteLength && !settled; at += PIECE) {
        const piece = body.subarray(at, at + PIECE);
        const ok = await new Promise<boolean>((done) => req.write(piece, (e) => done(!e)));
        if (!ok || settled) return; // the error event says why
        if (!sent) arm(deadlines.stallMs, stalled);
      }
      req.end(waitForAnswer);
    };
    // A kept-alive socket is connected already; a new one says so once its TCP (and TLS) handshake is done.
    req.on("socket", (socket) => {
      if (!socket.connecting) void connected();
      else socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => void connected());
    });

    req.on("response", (res) => {
      sent = true;
      phase = "while the answer arrived";
      const stalled = `no progress for ${seconds(deadlines.stallMs)} while the answer arrived`;
      arm(deadlines.stallMs, stalled);
      const chunks: Buffer[] = [];
      let received = 0;
      const expected = res.headers["content-length"];
      const cut = () =>
        new TransportError(
          `the answer (${res.statusCode}) was cut after ${received}${expected !== undefined ? ` of ${expected}` : ""} bytes`,
        );
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.byteLength;
        arm(deadlines.stallMs, stalled);
      });
      res.on("error", () => fail(cut()));
      res.on("aborted", () => fail(cut()));
      res.on("close", () => {
        if (!res.complete) fail(cut());
      });
      res.on("end", () => {
        if (settled) return;
        if (!res.complete) return fail(cut());
        const noBody = request.method === "HEAD" || res.statusCode === 204 || res.statusCode === 304;
        if (!noBody && expected !== undefined && Number(expected) !== received) return fail(cut());
        let bytes = Buffer.concat(chunks);
        const coding = res.headers["content-encoding"];
        if (options.decode && !noBody && (coding === "gzip" || coding === "br")) {
          try {
            bytes = coding === "gzip" ? gunzipSync(bytes) : brotliDecompressSync(bytes);
          } catch {
            return fail(new TransportError(`the answer's ${coding} bytes do not decode`));
          }
        }
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, body: bytes });
      });
    });
  });
}
