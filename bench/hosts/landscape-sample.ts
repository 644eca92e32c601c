// The landscape step's seeded sample of request targets over a runs build, and what each must be answered with, from
// the build's own files: a list page is L1's envelope around its run's slice (read through the list's offsets file),
// any other body the file the route table resolves the target to, an error the build's error body. Pure: the build is
// read through the reader handed in, so the tests give it a few bytes of memory.
import { PAGE_PREFIX, pageOfFile, pageSuffix } from "../../scripts/api/runtime/page-envelope.ts";
import { createResolver } from "../../scripts/api/runtime/resolve-request.ts";
import { type ErrorId, layout, MAX_LIMIT, type RouteTable } from "../../scripts/api/runtime/route-table.ts";

/** One request of the sample. */
export interface SampleRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  target: string;
  /** what it tests: a page, a tool, an error kind… (the report counts failures by kind) */
  kind: string;
}

/** What a runs build holds, as the sample and the expectations read it. */
export interface RunsBuildView {
  table: RouteTable;
  /** every served file but list pages, as build-index.json names them (pieces included) */
  files: readonly string[];
  /** each list by filter (`all`, `category/<slug>`): its meta.category and item count */
  lists: Readonly<Record<string, { category: string | null; total: number }>>;
}

/** xorshift32: the same sample for the same build and seed. */
export function seeded(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** The error kinds every sample holds, each asked several ways. */
export const ERROR_KINDS = [
  "invalid_limit",
  "invalid_offset",
  "offset_out_of_range",
  "category_not_found",
  "software_not_found",
  "invalid_query",
  "not_found",
  "method_not_allowed",
] as const satisfies readonly (ErrorId | "offset_out_of_range")[];

/** The request target a served file answers (its route's URL), or null for a file no URL names directly. */
export function targetOfFile(basePath: string, file: string): { target: string; kind: string } | null {
  const base = basePath.slice(1);
  if (!file.startsWith(`${base}/`) || !file.endsWith(".json")) return null;
  const rest = file.slice(base.length + 1, -".json".length);
  const one = (prefix: string) =>
    rest.startsWith(prefix) && !rest.slice(prefix.length).includes("/") ? rest.slice(prefix.length) : null;
  const tool = one("software/");
  if (tool !== null) return { target: `${basePath}/software/${tool}`, kind: "tool" };
  const best = one("best/");
  if (best !== null) return { target: `${basePath}/best/${best}`, kind: "ranking" };
  const q = one("search/");
  if (q !== null) return q.startsWith("_") ? null : { target: `${basePath}/search?q=${q}`, kind: "search" };
  if (one("sync/pieces/") !== null) return { target: `/${file}`, kind: "piece" };
  if (one("sync/") !== null) return { target: `/${file}`, kind: "hash tree" };
  if (rest === "categories") return { target: `${basePath}/categories`, kind: "categories" };
  if (rest === "export/catalog") return { target: `/${file}`, kind: "export" };
  if (rest === "openapi") return { target: `/${file}`, kind: "openapi" };
  return null;
}

/** How many of each kind the sample takes (pages many, the rest spread over every kind of body). */
const SHARE = { pages: 0.55, tool: 0.15, search: 0.08, piece: 0.08, ranking: 0.04, "hash tree": 0.02 } as const;

/**
 * At least `count` targets, seeded: list pages of the unfiltered list and of categories at many limits and offsets
 * (the default page, the last page and offset = total of every list sampled), tools, rankings, search answers,
 * pieces, shards, the categories, the export and openapi, then every error kind asked several ways.
 */
export function landscapeSample(view: RunsBuildView, seed: number, count: number): SampleRequest[] {
  const random = seeded(seed);
  const base = view.table.basePath;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const out: SampleRequest[] = [];
  const seen = new Set<string>();
  const add = (r: SampleRequest) => {
    const key = `${r.method} ${r.target}`;
    if (seen.has(key)) return false;
    seen.add(key);
    out.push(r);
    return true;
  };
  const get = (target: string, kind: string) => add({ method: "GET", target, kind });

  // Pages: half of the unfiltered list, half of categories, at random limits (some absent: 20) and offsets.
  const filters = Object.keys(view.lists).sort();
  const categories = filters.filter((f) => f !== "all");
  const query = (filter: string) => {
    const c = view.lists[filter]!.category;
    return c === null ? "" : `&category=${c}`;
  };
  const pageTarget = (filter: string, limit: number | null, offset: number | null) => {
    const params = [
      limit === null ? "" : `limit=${limit}`,
      offset === null ? "" : `offset=${offset}`,
      query(filter).slice(1),
    ];
    const q = params.filter(Boolean).join("&");
    return `${base}/software${q ? `?${q}` : ""}`;
  };
  const pages = Math.ceil(count * SHARE.pages);
  // each list sampled also gets its default page, its last page and offset = total
  for (const filter of [
    "all",
    ...categories.filter(() => random() < Math.min(1, 40 / Math.max(1, categories.length))),
  ]) {
    const { total } = view.lists[filter]!;
    const limit = 1 + Math.floor(random() * MAX_LIMIT);
    get(pageTarget(filter, null, null), "page");
    get(pageTarget(filter, limit, total === 0 ? 0 : Math.floor((total - 1) / limit) * limit), "last page");
    get(pageTarget(filter, limit, total), "offset = total");
  }
  for (let tries = 0; out.length < pages && tries < pages * 4; tries++) {
    const filter = random() < 0.5 || categories.length === 0 ? "all" : pick(categories);
    const { total } = view.lists[filter]!;
    const limit = random() < 0.1 ? null : 1 + Math.floor(random() * MAX_LIMIT);
    const offset = random() < 0.1 ? null : Math.floor(random() * (total + 1));
    get(pageTarget(filter, limit, offset), "page");
  }

  // Other bodies by kind, from the files the build names.
  const byKind = new Map<string, string[]>();
  for (const file of view.files) {
    const t = targetOfFile(base, file);
    if (t) byKind.set(t.kind, [...(byKind.get(t.kind) ?? []), t.target]);
  }
  for (const [kind, share] of Object.entries(SHARE)) {
    if (kind === "pages") continue;
    const targets = byKind.get(kind) ?? [];
    const want = Math.min(targets.length, Math.ceil(count * share));
    for (let taken = 0, tries = 0; taken < want && tries < want * 4; tries++) if (get(pick(targets), kind)) taken++;
  }
  for (const kind of ["categories", "export", "openapi"]) for (const t of byKind.get(kind) ?? []) get(t, kind);
  get(`${base}/categories?unknown=1`, "categories");

  // Until count: more pages.
  for (let tries = 0; out.length < count && tries < count * 4; tries++) {
    const filter = random() < 0.5 || categories.length === 0 ? "all" : pick(categories);
    get(
      pageTarget(filter, 1 + Math.floor(random() * MAX_LIMIT), Math.floor(random() * (view.lists[filter]!.total + 1))),
      "page",
    );
  }

  // Every error kind, several ways each.
  const tools = byKind.get("tool") ?? [];
  for (let i = 0; i < 10; i++) {
    const filter = i % 2 === 0 || categories.length === 0 ? "all" : pick(categories);
    const { total } = view.lists[filter]!;
    const q = query(filter);
    get(
      `${base}/software?limit=${["0", "101", "-1", "x", "", "05", "1.5", "%31", "100&limit=5", "+1"][i]}${q}`,
      "invalid_limit",
    );
    get(
      `${base}/software?offset=${["-1", "x", "01", "", "1e3", "%30", "0&offset=0", "%201", "+0", "1.0"][i]}${q}`,
      "invalid_offset",
    );
    get(pageTarget(filter, 1 + i * 11, total + 1 + i * 997), "offset_out_of_range");
    get(`${base}/software?category=no-such-category-${i}`, "category_not_found");
    get(`${base}/best/no-such-category-${i}`, "category_not_found");
    get(`${base}/software/no-such-tool-${i}`, "software_not_found");
    if (tools.length) get(`${pick(tools)}-not-${i}`, "software_not_found");
    get(
      `${base}/search?q=${["", "Bad", "a-b", "x".repeat(33), "a&q=b", "%61", "%C3%A9", "a%20b", "A", "_none"][i]}`,
      "invalid_query",
    );
    get(`${base}/no-such-endpoint-${i}`, "not_found");
    get(`/no-such-path-${i}`, "not_found");
    add({
      method: (["POST", "PUT", "DELETE"] as const)[i % 3]!,
      target: `${base}/categories?i=${i}`,
      kind: "method_not_allowed",
    });
  }
  get(`${base}/search`, "invalid_query");
  get(`${base}/software/${"a".repeat(300)}`, "software_not_found");
  return out;
}

/** Reads a runs build (files by their dist path). */
export interface RunsBuildReader {
  /** a file's bytes (any body, error body or run) */
  read(file: string): Buffer;
  /** a list's offsets file (`runs/<filter>.offsets`) as uint32 entries, or null when the build has no such list */
  offsets(filter: string): Uint32Array | null;
}

export interface ExpectedAnswer {
  status: number;
  body: Buffer;
  /** where the body comes from: a file, or `runs/<filter>.run` [start, end) in its envelope */
  from: string;
}

/**
 * What the build says each `method target` must answer: status and body (identity). List pages exist when their
 * list's offsets file holds their offset; every other file when the build names it (`view.files`).
 */
export function answerOracle(
  view: RunsBuildView,
  reader: RunsBuildReader,
): (method: string, target: string) => ExpectedAnswer {
  const named = new Set(view.files);
  const resolver = createResolver(view.table);
  const template = layout(view.table.basePath).page;
  const prefix = template.slice(0, template.indexOf("{filter}"));
  const pageOf = (file: string) => {
    const at = pageOfFile(template, file);
    if (!at) return null;
    const filter = at.list.slice(prefix.length);
    const offsets = reader.offsets(filter);
    if (!offsets) return null;
    const total = offsets.length - 1;
    return at.offset <= total ? { filter, total, offsets, ...at } : null;
  };
  return (method, target) => {
    const r = resolver.resolve(method, target, (file) => (named.has(file) || pageOf(file) ? file : null));
    if (r instanceof Promise) throw new Error("a synchronous probe resolves synchronously");
    if (r.kind === "preflight") return { status: 204, body: Buffer.alloc(0), from: "preflight" };
    if (r.kind === "error") {
      const e = view.table.errors[r.id];
      return { status: e.status, body: reader.read(e.file), from: e.file };
    }
    const page = pageOf(r.file);
    if (!page) return { status: r.status, body: reader.read(r.file), from: r.file };
    const { filter, total, offsets, limit, offset } = page;
    const end = Math.min(offset + limit, total);
    const [a, b] = offset >= end ? [0, 0] : [offsets[offset]!, offsets[end]! - 1];
    const run = `runs/${filter}.run`;
    const category = view.lists[filter]?.category ?? (filter.startsWith("category/") ? filter.slice(9) : null);
    const items = a === b ? Buffer.alloc(0) : reader.read(run).subarray(a, b);
    return {
      status: 200,
      body: Buffer.concat([
        Buffer.from(PAGE_PREFIX),
        items,
        Buffer.from(pageSuffix(total, limit, offset, JSON.stringify(category))),
      ]),
      from: `${run} [${a}, ${b})`,
    };
  };
}
