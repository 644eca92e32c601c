// The two answers the server gives on its own, outside the route table's errors: a request whose framing cannot be
// read (400), and a moment without file descriptors (503 with Retry-After). Same JSON shape and headers as the rest.
import type { RouteTable } from "../../api/route-table.ts";

export interface PrebuiltResponse {
  status: number;
  /** flat [name, value, …] */
  headers: string[];
  body: Buffer;
}

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 1;

export const BAD_REQUEST_BODY = {
  error: {
    code: "bad_request",
    message: "The request is not valid HTTP/1.1: its Transfer-Encoding, Content-Length or chunked body cannot be read.",
    hint: "Send GET, HEAD or OPTIONS requests without a body.",
  },
};

export const UNAVAILABLE_BODY = {
  error: {
    code: "service_unavailable",
    message: "The server is out of file descriptors for a moment.",
    hint: `Retry after ${RETRY_AFTER_SECONDS} second.`,
  },
};

function prebuilt(table: RouteTable, status: number, body: object, extra: string[] = []): PrebuiltResponse {
  const bytes = Buffer.from(JSON.stringify(body));
  return { status, headers: [...Object.entries(table.headers.all).flat(), ...extra, "Content-Length", String(bytes.byteLength)], body: bytes };
}

export function serverErrors(table: RouteTable) {
  return {
    badRequest: prebuilt(table, 400, BAD_REQUEST_BODY),
    unavailable: prebuilt(table, 503, UNAVAILABLE_BODY, ["Retry-After", String(RETRY_AFTER_SECONDS)]),
  };
}
