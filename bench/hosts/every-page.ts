// Every page of a page tree asked of a host, each answer compared with the page file: status 200, the bytes, and the
// ETag of the file's bytes (L1, L2). One code path for every full host the bench checks pages on: the Node server and
// nginx serving a runs build (runs-pages.ts), and the Worker over R2 and over Static Assets (r2-pages.ts).
import { etagOf } from "../../scripts/api/etag-node.ts";
import { fill, layout, MAX_LIMIT } from "../../scripts/api/runtime/route-table.ts";
import { askEach, type PipelinedAnswer } from "../../test/helpers/hosts/pipelined.ts";

/** A page: its file in a pages build (under dist), and the request target a client asks it with. */
export interface PageTarget {
  file: string;
  target: string;
}

/** What the build's index says of each list (build-index.json `lists`): its category and one length per item. */
export type ListsOfIndex = Record<string, { category: string | null; lengths: readonly unknown[] }>;

/** The request target of one page of a list. */
export const pageTarget = (basePath: string, category: string | null, limit: number, offset: number): string =>
  `${basePath}/software?limit=${limit}&offset=${offset}${category === null ? "" : `&category=${category}`}`;

/** Every page file a pages build holds: each list (in the index's order), each limit 1–MAX_LIMIT, each offset
 *  0–total (the page at offset = total is the empty one past the last item). */
export function pageTargets(lists: ListsOfIndex, basePath: string): PageTarget[] {
  const template = layout(basePath).page;
  const targets: PageTarget[] = [];
  for (const [filter, { category, lengths }] of Object.entries(lists))
    for (let limit = 1; limit <= MAX_LIMIT; limit++)
      for (let offset = 0; offset <= lengths.length; offset++)
        targets.push({
          file: fill(template, { filter, limit, offset }),
          target: pageTarget(basePath, category, limit, offset),
        });
  return targets;
}

/** Why an answer is not the page file `expected` (status, ETag, bytes: the first that differs and where), or null. */
export function pageMismatch(
  target: string,
  answer: { status: number; etag: string | null; body: Uint8Array },
  expected: Uint8Array,
): string | null {
  const body = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
  const sameBytes = body.equals(expected);
  const etag = etagOf(expected);
  if (answer.status === 200 && sameBytes && answer.etag === etag) return null;
  const got: string[] = [];
  if (answer.status !== 200) got.push(`status ${answer.status}, not 200`);
  if (answer.etag !== etag) got.push(`ETag ${answer.etag ?? "none"}, not ${etag}`);
  if (!sameBytes) {
    let at = 0;
    while (at < body.length && at < expected.length && body[at] === expected[at]) at++;
    const near = (b: Uint8Array) => JSON.stringify(Buffer.from(b.subarray(at, at + 40)).toString("utf8"));
    got.push(
      `${body.length} bytes, not ${expected.length}, first differing at byte ${at}: ${near(body)}, not ${near(expected)}`,
    );
  }
  return `${target}: ${got.join("; ")}`;
}

export interface PagesAsked {
  /** pages asked, and those whose status, bytes or ETag differed from the page file (each with why) */
  pages: number;
  mismatches: string[];
  seconds: number;
}

export interface AskOptions {
  /** connections at once */
  lanes?: number;
  /** requests on one connection before it is closed and another opened (nginx closes after keepalive_requests) */
  perConnection?: number;
  /** requests written at once on a connection (1: keep-alive without pipelining) */
  batch?: number;
  headers?: Record<string, string>;
  /** every answer, with its target, after the comparison */
  onAnswer?: (answer: PipelinedAnswer, page: PageTarget) => void;
}

/** Asks `origin` for every target (the identity body: no Accept-Encoding unless `headers` say), and compares each
 *  answer with `expectedOf(page)`, the page file's bytes. Every mismatch is kept, with why. */
export async function askEveryPage(
  origin: string,
  targets: PageTarget[],
  expectedOf: (page: PageTarget) => Promise<Uint8Array>,
  { lanes = 4, perConnection = 500, batch = 50, headers = {}, onAnswer }: AskOptions = {},
): Promise<PagesAsked> {
  const started = performance.now();
  const mismatches: string[] = [];
  let next = 0;
  const lane = async () => {
    for (let from = next; from < targets.length; from = next) {
      next += perConnection;
      const pages = targets.slice(from, from + perConnection);
      // the files of the whole chunk read while nothing waits on them
      const expected = await Promise.all(pages.map(expectedOf));
      await askEach(
        origin,
        pages.map((p) => ({ target: p.target, headers })),
        (answer, i) => {
          const page = pages[i]!;
          const why = pageMismatch(page.target, { ...answer, etag: answer.headers.etag ?? null }, expected[i]!);
          if (why !== null) mismatches.push(why);
          onAnswer?.(answer, page);
        },
        batch,
      );
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return { pages: targets.length, mismatches, seconds: (performance.now() - started) / 1000 };
}
