// Many requests over one connection, pipelined (HTTP/1.1): each batch is written at once and its answers read in
// order. For tests that compare tens of thousands of answers: a client request object per answer cost more CPU than the
// server's answer. Bodies are delimited by Content-Length (the project's hosts always send one); HEAD, 204 and 304
// answers have none.
import { connect, type Socket } from "node:net";

export interface PipelinedRequest {
  target: string;
  method?: string;
  headers?: Record<string, string>;
}

export interface PipelinedAnswer {
  status: number;
  /** lower-case names, the date and connection headers left out (they depend on the moment, not on the build) */
  headers: Record<string, string>;
  /** as sent: not decoded */
  body: Buffer;
}

const MOMENTARY = new Set(["date", "connection", "keep-alive"]);

/** The answers to `requests`, in order, over one connection to `origin`, `batch` requests in flight at a time. */
export async function askPipelined(
  origin: string,
  requests: PipelinedRequest[],
  batch = 100,
): Promise<PipelinedAnswer[]> {
  const { hostname, port } = new URL(origin);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const reader = answerReader(socket);
  const answers: PipelinedAnswer[] = [];
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
      for (const r of some) answers.push(await reader.next(r.method === "HEAD"));
    }
  } finally {
    socket.destroy();
  }
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
            const name = line.slice(0, colon).toLowerCase();
            if (!MOMENTARY.has(name)) headers[name] = line.slice(colon + 1).trim();
          }
          const length = head || status === 204 || status === 304 ? 0 : Number(headers["content-length"] ?? 0);
          if (buffered.length >= end + 4 + length) {
            const body = Buffer.from(buffered.subarray(end + 4, end + 4 + length));
            buffered = buffered.subarray(end + 4 + length);
            return { status, headers, body };
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
