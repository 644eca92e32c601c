// How every runtime answers a resolved request (P4–P6, H1–H3): which status and headers each kind of answer has, when
// a conditional request is answered 304, which precompressed body a client gets, and when a body is sent at all. Pure
// and Web-API-free: the Node server and the Cloudflare Worker only read files and write bytes; a rule fixed here is
// fixed for both.
import type { Decision } from "./resolve-request.ts";
import {
  type Coding,
  ERROR_STATUS,
  type ErrorId,
  HOST_ERROR_STATUS,
  type HostErrorId,
  RETRY_AFTER_SECONDS,
  type RouteTable,
} from "./route-table.ts";

export type { Coding };

export type HeaderPairs = [name: string, value: string][];

/** What an answer needs to know of the file a request resolved to. */
export interface FileFacts {
  /** the body's strong ETag (etag.ts) */
  etag: string;
  /** precompressed siblings present beside it, in preference order; none on hosts that compress themselves */
  codings: readonly Coding[];
}

/** What a request gets, before any byte is read or written. */
export type Plan =
  | { kind: "preflight"; status: 204 }
  | { kind: "error"; id: ErrorId; status: number }
  /** the resolved file: `coding` names the sibling to send instead of the body; a 304 sends none */
  | { kind: "file"; status: number; notModified: boolean; coding?: Coding };

/** The request headers an answer depends on (absent: undefined or null, as each runtime reports them). */
export interface Conditions {
  ifNoneMatch?: string | null;
  acceptEncoding?: string | null;
}

/**
 * The answer to a resolution. `file`: the resolved file's facts, or null when it could not be read (vanished from the
 * build): never a 5xx, the not_found error. A file with an error status (offset_out_of_range) is never a 304.
 */
export function planAnswer(decision: Decision, file: FileFacts | null, conditions: Conditions): Plan {
  if (decision.kind === "preflight") return { kind: "preflight", status: 204 };
  if (decision.kind === "error") return errorPlan(decision.id);
  if (!file) return errorPlan("not_found");
  if (!decision.success) return { kind: "file", status: decision.status, notModified: false };
  const coding = file.codings.length > 0 ? pickCoding(conditions.acceptEncoding, file.codings) : undefined;
  // Unchanged is unchanged whichever coding the client saw before.
  if (isNotModified(conditions.ifNoneMatch, file)) return { kind: "file", status: 304, notModified: true, coding };
  return { kind: "file", status: decision.status, notModified: false, coding };
}

const errorPlan = (id: ErrorId): Plan => ({ kind: "error", id, status: ERROR_STATUS[id] });

/** P4, 204, 304: only a GET whose status carries content sends a body. */
export const sendsBody = (method: string, status: number): boolean =>
  method !== "HEAD" && status !== 204 && status !== 304;

/** H3: weak comparison over a comma-separated list, `*` matching any current representation. */
export function ifNoneMatchHits(header: string | null | undefined, etags: readonly string[]): boolean {
  if (header === undefined || header === null) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || etags.includes(t.replace(/^W\//, ""));
  });
}

/** Whether `If-None-Match` names this file in any of its codings. */
export function isNotModified(ifNoneMatch: string | null | undefined, file: FileFacts): boolean {
  if (ifNoneMatch === undefined || ifNoneMatch === null) return false;
  return ifNoneMatchHits(ifNoneMatch, [file.etag, ...file.codings.map((c) => codedEtag(file.etag, c))]);
}

/** Each coding is its own representation, so its own strong ETag: "hash" → "hash-br". */
export const codedEtag = (etag: string, coding: Coding | undefined): string =>
  coding ? `${etag.slice(0, -1)}-${coding}"` : etag;

/** The precompressed coding the client accepts, preferring the order of `codings`; q=0 refuses a coding. */
export function pickCoding(acceptEncoding: string | null | undefined, codings: readonly Coding[]): Coding | undefined {
  if (!acceptEncoding || codings.length === 0) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(",")) {
    const [token, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (token && (q === undefined || Number(q) > 0)) accepted.add(token);
  }
  return codings.find((c) => accepted.has(c) || (c === "gzip" && accepted.has("x-gzip")) || accepted.has("*"));
}

/** The header lists of one route table: built once per build by each runtime. */
export interface AnswerHeaders {
  /** an error's status and headers (H1, H2; 405 adds Allow, 503 Retry-After and no-store), Content-Length added */
  error(id: ErrorId | HostErrorId, length: number): { status: number; headers: HeaderPairs };
  /** OPTIONS 204 (P5): Access-Control-Allow-Headers echoes the request's Access-Control-Request-Headers, or `*` */
  preflight(requestedHeaders: string | null | undefined): HeaderPairs;
  /** a file answered with an error status (offset_out_of_range): as an error, no validators */
  errorFile(length: number): HeaderPairs;
  /**
   * A 200 or 304 for a file (H3): Cache-Control and the ETag of the coding sent, Vary when the file has codings.
   * `contentType`: a docs asset's own type (else JSON). A 304 describes no representation: no Content-Type, no length.
   */
  success(
    file: FileFacts,
    plan: { notModified: boolean; coding?: Coding },
    length: number,
    contentType?: string,
  ): HeaderPairs;
}

export function answerHeaders(table: RouteTable): AnswerHeaders {
  const all = Object.entries(table.headers.all);
  const untyped = all.filter(([k]) => k.toLowerCase() !== "content-type");
  const success = Object.entries(table.headers.success);
  const preflight = [...all, ...Object.entries(table.headers.preflight)];
  const allow = table.methods.join(", ");
  const length = (n: number): [string, string] => ["Content-Length", String(n)];
  return {
    error(id, bytes) {
      const status =
        id in HOST_ERROR_STATUS ? HOST_ERROR_STATUS[id as HostErrorId] : table.errors[id as ErrorId].status;
      // A 503 passes (H7): a cache must not keep it, so the next request reaches the storage again.
      const extra: HeaderPairs =
        status === 405
          ? [["Allow", allow]]
          : status === 503
            ? [
                ["Retry-After", String(RETRY_AFTER_SECONDS)],
                ["Cache-Control", "no-store"],
              ]
            : [];
      return { status, headers: [...all, ...extra, length(bytes)] };
    },
    preflight: (requested) => [...preflight, ["Access-Control-Allow-Headers", requested || "*"]],
    errorFile: (bytes) => [...all, length(bytes)],
    success(file, plan, bytes, contentType) {
      const validators: HeaderPairs = [
        ...success,
        ["ETag", codedEtag(file.etag, plan.coding)],
        ...(file.codings.length > 0 ? [["Vary", "Accept-Encoding"] as [string, string]] : []),
      ];
      if (plan.notModified) return [...untyped, ...validators];
      const type: HeaderPairs = contentType ? [...untyped, ["Content-Type", contentType]] : all;
      return [
        ...type,
        ...validators,
        ...(plan.coding ? [["Content-Encoding", plan.coding] as [string, string]] : []),
        length(bytes),
      ];
    },
  };
}
