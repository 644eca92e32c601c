// Many requests over one keep-alive connection, `batch` of them written at once (HTTP/1.1 pipelining; a batch of 1 is
// plain keep-alive), each answer handed over as it is read, in order, and then dropped: the every-page checks ask
// hundreds of thousands of pages, and a client request object per answer cost more CPU than the server's answer.
// Bodies are delimited by Content-Length, or chunked (the Worker streams some); HEAD, 204 and 304 answers have none.
// Shared by the tests (askPipelined keeps every answer) and the bench's every-page checks (askEach drops each one).
import { connect, type Socket } from "node:net";

export interface PipelinedRequest {
  target: string;
  method?: string;
  headers?: Record<string, string>;
}

export interface PipelinedAnswer {
  status: number;
  /** lower-case names */
  headers: Record<string, string>;
  /** as sent: not decoded */
  body: Buffer;
}

/** Asks `requests` over one new connection to `origin`, `batch` in flight at a time, and awaits `each` on every
 *  answer, in order; the connection is closed at the end. */
export async function askEach(
  origin: string,
  requests: PipelinedRequest[],
  each: (answer: PipelinedAnswer, index: number) => void | Promise<void>,
  batch = 50,
): Promise<void> {
  const { hostname, port } = new URL(origin);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const reader = answerReader(socket);
  try {
    for (let from = 0; from < requests.length; from += batch) {
      const some = requests.slice(from, from + batch);
      socket.write(
        some
          .map(({ target, method = "GET", headers = {} }) =>
            [
              `${method} ${target} HTTP/1.1`,
              `Host: ${hostname}`,
              ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
            ]
              .concat("", "")
              .join("\r\n"),
          )
          .join(""),
      );
      for (const [i, r] of some.entries()) await each(await reader.next(r.method === "HEAD"), from + i);
    }
  } finally {
    socket.destroy();
  }
}

/** Headers that depend on the moment, not on the build: left out of askPipelined's answers. */
const MOMENTARY = new Set(["date", "connection", "keep-alive"]);

/** The answers to `requests`, in order, over one connection to `origin`, `batch` requests in flight at a time; the
 *  date and connection headers left out. */
export async function askPipelined(
  origin: string,
  requests: PipelinedRequest[],
  batch = 100,
): Promise<PipelinedAnswer[]> {
  const answers: PipelinedAnswer[] = [];
  await askEach(
    origin,
    requests,
    ({ status, headers, body }) => {
      for (const name of MOMENTARY) delete headers[name];
      answers.push({ status, headers, body });
    },
    batch,
  );
  return answers;
}

/** Reads answers off a socket one at a time. */
function answerReader(socket: Socket) {
  // Chunks are joined only when the answers read so far run out: each byte is copied once, however many answers a
  // batch brings at once.
  let buffered: Buffer = Buffer.alloc(0);
  let pending: Buffer[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  socket.on("data", (chunk: Buffer) => {
    pending.push(chunk);
    wake?.();
  });
  const stop = (e?: Error) => {
    failure ??= e ?? new Error("the connection closed before every answer arrived");
    wake?.();
  };
  socket.on("error", stop).on("close", () => stop());
  const more = () =>
    new Promise<void>((resolve) => {
      wake = () => {
        wake = undefined;
        resolve();
      };
    });
  return {
    async next(head: boolean): Promise<PipelinedAnswer> {
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end >= 0) {
          const [statusLine = "", ...lines] = buffered.subarray(0, end).toString("latin1").split("\r\n");
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
          const headers: Record<string, string> = {};
          for (const line of lines) {
            const colon = line.indexOf(":");
            headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
          }
          const empty = head || status === 204 || status === 304;
          if (!empty && headers["transfer-encoding"]?.toLowerCase() === "chunked") {
            const chunked = dechunk(buffered, end + 4);
            if (chunked) {
              buffered = buffered.subarray(chunked.end);
              return { status, headers, body: chunked.body };
            }
          } else {
            const length = empty ? 0 : Number(headers["content-length"] ?? 0);
            if (buffered.length >= end + 4 + length) {
              const body = Buffer.from(buffered.subarray(end + 4, end + 4 + length));
              buffered = buffered.subarray(end + 4 + length);
              return { status, headers, body };
            }
          }
        }
        if (pending.length > 0) {
          buffered = Buffer.concat([buffered, ...pending]);
          pending = [];
          continue;
        }
        if (failure) throw failure;
        await more();
      }
    },
  };
}

/** A chunked body starting at `from`: its bytes and where the answer ends, or null when not all of it is here yet
 *  (trailers are not expected: the chunk of size 0 is followed by its CRLF). */
function dechunk(buffer: Buffer, from: number): { body: Buffer; end: number } | null {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const line = buffer.indexOf("\r\n", at);
    if (line < 0) return null;
    const size = Number.parseInt(buffer.subarray(at, line).toString("latin1"), 16);
    if (!Number.isInteger(size)) throw new Error(`a chunked body with a bad chunk size at byte ${at}`);
    const start = line + 2;
    if (buffer.length < start + size + 2) return null;
    if (size === 0) return { body: Buffer.concat(parts), end: start + 2 };
    parts.push(buffer.subarray(start, start + size));
    at = start + size + 2;
  }
}
